/** A list of repositories as GitHub's profile and search pages show them: name, visibility, description, language, stars, last update. */
import type { OwnedRepository } from '../../auth/access/repos';
import type { WebContext } from '../context';
import { Octicon } from '../octicons';
import { Blankslate, RelativeTime } from './layout';

const MAX_LISTED = 100;

export function RepoList({ ctx, entries }: { ctx: WebContext; entries: OwnedRepository[] }) {
	if (!entries.length) return <Blankslate icon="repo" title="No repositories to show" />;
	return (
		<ul class="list-style-none">
			{entries.slice(0, MAX_LISTED).map(({ repo, owner }) => (
				<li class="border-bottom py-3" key={repo.id}>
					<h3 class="f4">
						<a href={`/${owner.login}/${repo.name}`}>
							{owner.login}/{repo.name}
						</a>{' '}
						<span class="Label Label--secondary">
							{repo.visibility === 'public' ? 'Public' : repo.visibility === 'internal' ? 'Internal' : 'Private'}
						</span>
					</h3>
					{repo.description && <p class="color-fg-muted mb-1">{repo.description}</p>}
					<span class="f6 color-fg-muted">
						{repo.language && <span class="mr-3">{repo.language}</span>}
						<span class="mr-3">
							<Octicon name="star" /> {repo.stargazers_count}
						</span>
						Updated <RelativeTime iso={repo.pushed_at ?? repo.updated_at} now={ctx.now} />
					</span>
				</li>
			))}
		</ul>
	);
}
