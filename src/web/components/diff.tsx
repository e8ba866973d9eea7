/** A diff as GitHub shows it: one box per file with its status, line counts and hunks (old and new line numbers). */
import type { ComponentChildren } from 'preact';
import { filePatch, type TreeChange } from '../../api/git/diff';
import type { App } from '../../app';
import { Octicon } from '../octicons';

/** Files shown with their lines at most; the rest are listed by name. */
const MAX_FILES_SHOWN = 100;
/** Diff lines shown per file at most. */
const MAX_LINES = 3000;

interface Line {
	kind: 'hunk' | 'add' | 'del' | 'ctx';
	old: number | null;
	new: number | null;
	text: string;
}

/** The lines of a unified diff's hunks, numbered per side. */
export function diffLines(patch: string): Line[] {
	const out: Line[] = [];
	let oldLine = 0;
	let newLine = 0;
	for (const text of patch.split('\n')) {
		if (text.startsWith('@@')) {
			const m = /^@@ -(\d+)(?:,\d+)? \+(\d+)/.exec(text);
			oldLine = m ? Number(m[1]) : 0;
			newLine = m ? Number(m[2]) : 0;
			out.push({ kind: 'hunk', old: null, new: null, text });
		} else if (text.startsWith('+')) out.push({ kind: 'add', old: null, new: newLine++, text });
		else if (text.startsWith('-')) out.push({ kind: 'del', old: oldLine++, new: null, text });
		else if (text.startsWith('\\')) out.push({ kind: 'ctx', old: null, new: null, text });
		else if (text !== '' || out.length) out.push({ kind: 'ctx', old: oldLine++, new: newLine++, text });
	}
	while (out.length && out[out.length - 1].kind === 'ctx' && out[out.length - 1].text === '') out.pop();
	return out;
}

const CLASS = { hunk: 'gs-hunk', add: 'gs-add', del: 'gs-del', ctx: '' };

/**
 * One file's diff. `commentsAt` places review comments after the line they are on (by the new
 * side's line, or the old side's for deleted lines).
 */
export function FileDiff({
	app,
	repoId,
	change,
	anchor,
	commentsAt,
	lineHref,
}: {
	app: App;
	repoId: number;
	change: TreeChange;
	anchor: string;
	commentsAt?: (side: 'LEFT' | 'RIGHT', line: number) => ComponentChildren;
	/** Where a line number links to (the inline comment form of that line), if anywhere. */
	lineHref?: (side: 'LEFT' | 'RIGHT', line: number) => string;
}) {
	// Comments sit on the new side's line, or the old side's for deleted lines (as commentsAt reads them).
	const number = (side: 'LEFT' | 'RIGHT', n: number | null, linked: boolean) =>
		n === null ? (
			''
		) : lineHref && linked ? (
			<a href={lineHref(side, n)} aria-label={`Comment on ${side === 'LEFT' ? 'old' : 'new'} line ${n} of ${change.path}`}>
				{n}
			</a>
		) : (
			n
		);
	const patch = filePatch(app, repoId, change);
	const lines = patch.patch ? diffLines(patch.patch) : [];
	return (
		<div class="Box mb-3" id={anchor}>
			<div class="Box-header py-2 d-flex flex-items-center">
				<span class="text-mono f6 mr-2">
					<span class="color-fg-success">+{patch.additions}</span> <span class="color-fg-danger">−{patch.deletions}</span>
				</span>
				<strong class="gs-mono f6 flex-auto text-truncate">
					{change.previousPath ? `${change.previousPath} → ${change.path}` : change.path}
				</strong>
				<span class="Label">{change.status}</span>
			</div>
			{patch.binary ? (
				<div class="Box-body color-fg-muted f6">Binary file not shown.</div>
			) : lines.length === 0 ? (
				<div class="Box-body color-fg-muted f6">
					{change.status === 'renamed' ? 'File renamed without changes.' : 'No changes to show.'}
				</div>
			) : (
				<div class="gs-overflow">
					<table class="gs-code gs-diff" aria-label={`Changes to ${change.path}`}>
						<tbody>
							{lines.slice(0, MAX_LINES).flatMap((line, i) => {
								const row = (
									<tr key={i}>
										<td class={`gs-num ${CLASS[line.kind]}`}>{number('LEFT', line.old, line.kind === 'del')}</td>
										<td class={`gs-num ${CLASS[line.kind]}`}>{number('RIGHT', line.new, true)}</td>
										<td class={`gs-line ${CLASS[line.kind]}`}>{line.text}</td>
									</tr>
								);
								const comments =
									commentsAt && line.kind !== 'hunk'
										? line.kind === 'del'
											? commentsAt('LEFT', line.old!)
											: line.new !== null
												? commentsAt('RIGHT', line.new)
												: null
										: null;
								return comments
									? [
											row,
											<tr key={`c${i}`}>
												<td colSpan={3} class="gs-comment-cell">
													{comments}
												</td>
											</tr>,
										]
									: [row];
							})}
						</tbody>
					</table>
					{lines.length > MAX_LINES && (
						<div class="Box-footer f6 color-fg-muted">Only the first {MAX_LINES} lines are shown.</div>
					)}
				</div>
			)}
		</div>
	);
}

/** Every file of a change list (the first MAX_FILES_SHOWN with their lines), with a summary. */
export function Diff({
	app,
	repoId,
	changes,
	complete,
	commentsAt,
	lineHref,
}: {
	app: App;
	repoId: number;
	changes: TreeChange[];
	complete: boolean;
	commentsAt?: (path: string) => ((side: 'LEFT' | 'RIGHT', line: number) => ComponentChildren) | undefined;
	/** Line links per file (FileDiff's lineHref). */
	lineHref?: (path: string) => ((side: 'LEFT' | 'RIGHT', line: number) => string) | undefined;
}) {
	return (
		<div>
			<p class="f6 color-fg-muted mb-2">
				<Octicon name="file-diff" /> Showing {changes.length}
				{complete ? '' : '+'} changed file{changes.length === 1 ? '' : 's'}
			</p>
			{changes.slice(0, MAX_FILES_SHOWN).map((change, i) => (
				<FileDiff
					key={change.path}
					app={app}
					repoId={repoId}
					change={change}
					anchor={`diff-${i}`}
					commentsAt={commentsAt?.(change.path)}
					lineHref={lineHref?.(change.path)}
				/>
			))}
			{changes.length > MAX_FILES_SHOWN && (
				<ul class="f6">
					{changes.slice(MAX_FILES_SHOWN).map((change) => (
						<li key={change.path} class="gs-mono">
							{change.path}
						</li>
					))}
				</ul>
			)}
		</div>
	);
}
