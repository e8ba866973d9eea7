/**
 * Repository statistics (GitHub's repos/statistics operations, "Metadata" read, public
 * repositories without a token): 200 with the statistics once computed, 202 with an empty object
 * while the background task computes them (clients ask again), 204 for an empty repository
 * (participation answers zeros), 422 from code frequency at 10,000 commits or more.
 */
import { accepted, noContent, ok, type Reply } from '../../http/reply';
import { route } from '../../http/route';
import { REPOSITORY_READ } from '../repos/access';
import { codeFrequencyStats, commitActivityStats, contributorStats, participationStats, punchCardStats, type StatsAnswer } from './service';

/** GitHub's answer for each state of the statistics. */
function reply<T>(answer: StatsAnswer<T>): Reply {
	if (answer.state === 'computing') return accepted({});
	if (answer.state === 'empty') return noContent();
	return ok(answer.value);
}

const BASE = '/repos/{owner}/{repo}/stats';

export const statsRoutes = [
	route({
		...REPOSITORY_READ,
		method: 'GET',
		path: `${BASE}/contributors`,
		docs: 'metrics/statistics#get-all-contributor-commit-activity',
		handler: (ctx) => reply(contributorStats(ctx.app, ctx.repo.repo)),
	}),
	route({
		...REPOSITORY_READ,
		method: 'GET',
		path: `${BASE}/commit_activity`,
		docs: 'metrics/statistics#get-the-last-year-of-commit-activity',
		handler: (ctx) => reply(commitActivityStats(ctx.app, ctx.repo.repo, ctx.now)),
	}),
	route({
		...REPOSITORY_READ,
		method: 'GET',
		path: `${BASE}/code_frequency`,
		docs: 'metrics/statistics#get-the-weekly-commit-activity',
		handler: (ctx) => reply(codeFrequencyStats(ctx.app, ctx.repo.repo)),
	}),
	route({
		...REPOSITORY_READ,
		method: 'GET',
		path: `${BASE}/participation`,
		docs: 'metrics/statistics#get-the-weekly-commit-count',
		handler: (ctx) => reply(participationStats(ctx.app, ctx.repo.repo, ctx.now)),
	}),
	route({
		...REPOSITORY_READ,
		method: 'GET',
		path: `${BASE}/punch_card`,
		docs: 'metrics/statistics#get-the-hourly-commit-count-for-each-day',
		handler: (ctx) => reply(punchCardStats(ctx.app, ctx.repo.repo)),
	}),
];
