// A generated git history for the git benchmark, made with `git fast-import` (deterministic: the
// same parameters give the same object ids): a source tree of `files` files in nested folders,
// `commits` commits each editing a few lines of a few files (as real work does), a merge every 50
// commits from a side branch, a rename now and then, a binary file, and annotated tags. Folders
// are cached in the system's temporary folder by their parameters.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** mulberry32: a small seeded generator, so the history is the same on every run. */
function generator(seed) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const WORDS =
	'const let function return await async import export from class extends new this value result error data items user repo branch commit tree blob index offset length buffer string number object array map set'.split(
		' ',
	);

function line(random, depth) {
	const words = Array.from({ length: 3 + Math.floor(random() * 8) }, () => WORDS[Math.floor(random() * WORDS.length)]);
	return `${'\t'.repeat(depth)}${words.join(' ')};`;
}

function sourceFile(random, lines) {
	const out = [];
	for (let i = 0; i < lines; i++) out.push(line(random, 1 + Math.floor(random() * 3)));
	return out;
}

/**
 * The bare repository of a generated history (made once, then reused).
 * @returns { dir, objects } the bare repository and its object count
 */
export function generatedHistory({ commits = 8000, files = 600, seed = 42 } = {}) {
	const dir = join(tmpdir(), `gitstead-bench-history-${commits}-${files}-${seed}.git`);
	const marker = join(dir, 'gitstead-complete');
	if (!existsSync(marker)) {
		rmSync(dir, { recursive: true, force: true });
		mkdirSync(dir, { recursive: true });
		execFileSync('git', ['init', '-q', '--bare', dir]);
		const random = generator(seed);
		const paths = Array.from({ length: files }, (_, i) => {
			const depth = 1 + (i % 3);
			const parts = Array.from({ length: depth }, (_, d) => `dir${(i * 7 + d * 13) % (6 + d * 5)}`);
			return `src/${parts.join('/')}/file${i}.js`;
		});
		const contents = paths.map(() => sourceFile(random, 40 + Math.floor(random() * 200)));
		const chunks = [];
		let mark = 0;
		const blob = (text) => {
			mark++;
			const data = Buffer.from(text);
			chunks.push(Buffer.from(`blob\nmark :${mark}\ndata ${data.length}\n`), data, Buffer.from('\n'));
			return mark;
		};
		const time = 1_700_000_000;
		let mainTip = null;
		let sideTip = null;
		for (let c = 0; c < commits; c++) {
			const onSide = c % 50 >= 40 && c % 50 < 49;
			const changes = [];
			const touched = 1 + Math.floor(random() * 3);
			for (let t = 0; t < touched; t++) {
				const f = Math.floor(random() * (c === 0 ? files : Math.min(files, 50 + c)));
				const lines = contents[f];
				const at = Math.floor(random() * lines.length);
				if (random() < 0.5) lines.splice(at, 1, line(random, 2));
				else lines.splice(at, 0, line(random, 2), line(random, 2));
				changes.push([paths[f], blob(`${lines.join('\n')}\n`)]);
			}
			if (c === 0) for (let f = 0; f < files; f++) changes.push([paths[f], blob(`${contents[f].join('\n')}\n`)]);
			if (c === 10) {
				const bytes = Buffer.alloc(64 * 1024);
				for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(random() * 256);
				mark++;
				chunks.push(Buffer.from(`blob\nmark :${mark}\ndata ${bytes.length}\n`), bytes, Buffer.from('\n'));
				changes.push(['assets/logo.bin', mark]);
			}
			mark++;
			const commitMark = mark;
			const branch = onSide ? 'refs/heads/side' : 'refs/heads/main';
			const message = `Change ${c}: edit ${changes.map(([p]) => p).join(', ')}`;
			const when = time + c * 3600;
			let text = `commit ${branch}\nmark :${commitMark}\nauthor Bench <bench@example.com> ${when} +0000\ncommitter Bench <bench@example.com> ${when} +0000\ndata ${Buffer.byteLength(message)}\n${message}\n`;
			if (onSide && sideTip === null) text += `from :${mainTip}\n`;
			else if (onSide) text += `from :${sideTip}\n`;
			else if (mainTip !== null) {
				text += `from :${mainTip}\n`;
				if (c % 50 === 49 && sideTip !== null) text += `merge :${sideTip}\n`;
			}
			for (const [path, blobMark] of changes) text += `M 100644 :${blobMark} ${path}\n`;
			if (c % 500 === 250) {
				const f = Math.floor(random() * files);
				const renamed = paths[f].replace('.js', `-v${c}.js`);
				text += `R ${paths[f]} ${renamed}\n`;
				paths[f] = renamed;
			}
			chunks.push(Buffer.from(`${text}\n`));
			if (onSide) sideTip = commitMark;
			else {
				mainTip = commitMark;
				if (c % 50 === 49) sideTip = null;
			}
			if (c % 1000 === 999)
				chunks.push(
					Buffer.from(
						`tag v${(c + 1) / 1000}.0\nfrom :${mainTip}\ntagger Bench <bench@example.com> ${when} +0000\ndata 8\nRelease\n\n`,
					),
				);
		}
		const input = Buffer.concat(chunks);
		const result = spawnSync('git', ['fast-import', '--quiet'], { cwd: dir, input, maxBuffer: 1 << 30 });
		if (result.status !== 0) throw new Error(`git fast-import failed: ${result.stderr}`);
		execFileSync('git', ['gc', '-q', '--aggressive', '--prune=now'], { cwd: dir });
		execFileSync('git', ['symbolic-ref', 'HEAD', 'refs/heads/main'], { cwd: dir });
		execFileSync('touch', [marker]);
	}
	const count = execFileSync('git', ['count-objects', '-v'], { cwd: dir, encoding: 'utf8' });
	const objects = Number(/in-pack: (\d+)/.exec(count)[1]);
	const sizePack = Number(/size-pack: (\d+)/.exec(count)[1]) * 1024;
	return { dir, objects, sizePack };
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const started = Date.now();
	console.log(generatedHistory({ commits: Number(process.argv[2] ?? 8000) }), `${Date.now() - started} ms`);
}
