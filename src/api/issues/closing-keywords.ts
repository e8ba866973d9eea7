/**
 * Closing keywords (GitHub's "Linking a pull request to an issue using a keyword",
 * https://docs.github.com/issues/tracking-your-work-with-issues/using-issues/linking-a-pull-request-to-an-issue):
 * `close`, `closes`, `closed`, `fix`, `fixes`, `fixed`, `resolve`, `resolves` or `resolved` (any
 * case, an optional colon) followed by `#N` or `owner/repo#N`. Read from a merged pull request's
 * title, body and commit messages (src/api/pulls/closing.ts) and from the messages of commits pushed
 * to the default branch (push-references.ts).
 */

const KEYWORD = /(?:^|[^\w/.-])(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?):?[ \t]+(?:([\w.-]+)\/([\w.-]+))?#(\d+)\b/gi;

/**
 * Issue numbers of the repository `owner/repo` that the text closes, in order of first mention: a
 * reference naming another repository (`other/repo#N`) is left out.
 */
export function closingReferences(text: string, owner: string, repo: string): number[] {
	const numbers: number[] = [];
	for (const match of text.matchAll(KEYWORD)) {
		const [, refOwner, refRepo, number] = match;
		if (refOwner !== undefined && (refOwner.toLowerCase() !== owner.toLowerCase() || refRepo.toLowerCase() !== repo.toLowerCase()))
			continue;
		const n = Number(number);
		if (Number.isSafeInteger(n) && n > 0 && !numbers.includes(n)) numbers.push(n);
	}
	return numbers;
}
