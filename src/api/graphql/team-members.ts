/**
 * GraphQL's Team.members with its `membership` argument honoured
 * (https://docs.github.com/graphql/reference/enums#teammembershiptype): ALL (the default: the
 * team's members and its child teams', as REST's GET /orgs/{org}/teams/{team_slug}/members lists
 * them) is the general resolver's; IMMEDIATE keeps those who are members of the team itself,
 * CHILD_TEAM those who are members only through a child team. Both read the REST list (what the
 * caller may see of the team, `role` applied) and sort its members by their own membership row.
 */
import { TypedError } from './errors';
import { get, RESOLVERS, type GraphContext } from './resolve';

// biome-ignore lint/suspicious/noExplicitAny: sources are REST representations
type Source = Record<string, any>;
// biome-ignore lint/suspicious/noExplicitAny: arguments are validated by graphql-js against the schema
type Args = Record<string, any>;

/** Members read at most for one filtered list (100 pages of 100). */
const MAX_PAGES = 100;

/** The cursor format of the other connections (src/api/graphql/resolve.ts): `cursor:v2:<index>`. */
const cursor = (index: number) => Buffer.from(`cursor:v2:${index}`).toString('base64');
function cursorIndex(value: unknown): number {
	const m = typeof value === 'string' ? /^cursor:v2:(\d{1,9})$/.exec(Buffer.from(value, 'base64').toString()) : null;
	if (!m) throw new TypedError('INVALID_CURSOR_ARGUMENTS', `\`${value}\` does not appear to be a valid cursor.`);
	return Number(m[1]);
}

/** A Relay connection (first/after/last/before over offsets) of a list in hand. */
function listConnection(args: Args, list: Source[]): Source {
	const start = args.after != null ? cursorIndex(args.after) + 1 : 0;
	const end = Math.min(list.length, args.before != null ? cursorIndex(args.before) : list.length);
	let from = start;
	let to = end;
	if (args.first != null) to = Math.min(end, start + Number(args.first));
	else if (args.last != null) from = Math.max(start, end - Number(args.last));
	else to = from; // only totalCount asked
	const edges: Source[] = list.slice(from, Math.max(from, to)).map((item, i) => ({ ...item, cursor: cursor(from + i) }));
	return {
		totalCount: list.length,
		nodes: edges.map((edge) => edge.node),
		edges,
		pageInfo: {
			startCursor: edges[0]?.cursor ?? null,
			endCursor: edges.at(-1)?.cursor ?? null,
			hasNextPage: from + edges.length < end,
			hasPreviousPage: from > 0,
		},
	};
}

export const TEAM_MEMBER_FIELDS: Record<string, Record<string, (source: Source, args: Args, g: GraphContext) => unknown>> = {
	Team: {
		members: (s, a, g) => {
			const membership = a.membership == null ? 'ALL' : String(a.membership);
			if (membership === 'ALL') return RESOLVERS.Team.members(s, a, g);
			const { stores } = g.ctx.app;
			const team = stores.teams.byId(Number(s.id));
			const org = team && stores.accounts.byId(team.org_id);
			if (!team || !org) return listConnection(a, []);
			const path = `/orgs/${encodeURIComponent(org.login)}/teams/${encodeURIComponent(team.slug)}/members`;
			const role = a.role ? String(a.role).toLowerCase() : 'all';
			const edges: Source[] = [];
			for (let page = 1; page <= MAX_PAGES; page++) {
				const body = get(g, path, { role, per_page: '100', page: String(page) }) as Source[];
				for (const member of body) {
					const own = stores.teams.membership(team.id, Number(member.id));
					const immediate = own?.state === 'active';
					if (immediate !== (membership === 'IMMEDIATE')) continue;
					edges.push({
						node: { ...member, __typename: 'User' },
						role: own?.role === 'maintainer' ? 'MAINTAINER' : 'MEMBER',
					});
				}
				if (body.length < 100) break;
			}
			return listConnection(a, edges);
		},
	},
};
