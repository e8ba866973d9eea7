/**
 * Organization shapes: the organization summary (embedded in a team's full form) and GitHub's
 * organization-full for GET /orgs/{org}; organization-simple is src/model/render.ts orgSimple.
 */
import type { Urls } from '../../model/urls';
import { MEMBER_POLICIES, ORG_FLAGS, type AccountCounts } from '../users/store';
import type { AccountRow } from '../../model/rows';
import { orgSimple } from '../../model/render';

/** GitHub's plan values for no limit: disk space in kilobytes, private repositories. */
const UNLIMITED_SPACE = 976_562_499;
const UNLIMITED_REPOSITORIES = 999_999;

/**
 * The profile fields an organization has set. GitHub's description types name, company, blog,
 * location and email as strings (blog a URI, email an address), never null: unset ones are left out.
 */
function profile(org: AccountRow): { name?: string; company?: string; blog?: string; location?: string; email?: string } {
	const fields = { name: org.name, company: org.company, blog: org.blog, location: org.location, email: org.email };
	return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null && value !== '')) as ReturnType<typeof profile>;
}

/** OrganizationSummary: organization-simple plus profile and counts (GitHub's team-organization, https://docs.github.com/enterprise-server@3.19/rest/orgs/orgs#get-an-organization). */
export function orgSummary(urls: Urls, org: AccountRow, counts: AccountCounts) {
	return {
		...orgSimple(urls, org),
		...profile(org),
		has_organization_projects: org.has_organization_projects === 1,
		has_repository_projects: org.has_repository_projects === 1,
		public_repos: counts.public_repos,
		public_gists: counts.public_gists,
		followers: 0,
		following: 0,
		html_url: `${urls.origin}/${org.login}`,
		created_at: org.created_at,
		updated_at: org.updated_at,
		// Organizations are never archived here: GitHub's null for one that is not.
		archived_at: null,
		type: 'Organization',
	};
}

/**
 * GET /orgs/{org}: organization-full. Members see the private counts and the members_can_*
 * policies; owners also `billing_email`, the settings of ORG_FLAGS (web_commit_signoff_required,
 * the security defaults for new repositories, deploy keys) and `plan` (Gitstead has no billing: `enterprise` for an
 * organization of an enterprise, else `free`; no seat or repository cap, so `seats` equals the
 * filled seats and `space`/`private_repos` are GitHub's values for unlimited).
 * @param seats the organization's active members (plan.filled_seats); needed for owners only
 */
export function orgFull(urls: Urls, org: AccountRow, counts: AccountCounts, viewer: { member: boolean; admin: boolean }, seats = 0) {
	const base = {
		...orgSummary(urls, org, counts),
		twitter_username: org.twitter_username,
		is_verified: false,
		archived_at: null,
	};
	if (!viewer.member) return base;
	const members = {
		...base,
		total_private_repos: counts.private_repos,
		owned_private_repos: counts.private_repos,
		private_gists: counts.private_gists,
		disk_usage: 0,
		collaborators: 0,
		default_repository_permission: org.default_repository_permission,
		...Object.fromEntries(MEMBER_POLICIES.map((key) => [key, org[key] === 1])),
		two_factor_requirement_enabled: false,
		members_allowed_repository_creation_type:
			org.members_can_create_repositories !== 1 ? 'none' : org.members_can_create_public_repositories === 1 ? 'all' : 'private',
	};
	if (!viewer.admin) return members;
	return {
		...members,
		billing_email: org.billing_email,
		// web_commit_signoff_required, the security defaults for new repositories, deploy keys.
		...Object.fromEntries(ORG_FLAGS.map((key) => [key, org[key] === 1])),
		secret_scanning_push_protection_custom_link: org.secret_scanning_push_protection_custom_link,
		plan: {
			name: org.enterprise_id !== null ? 'enterprise' : 'free',
			space: UNLIMITED_SPACE,
			private_repos: UNLIMITED_REPOSITORIES,
			filled_seats: seats,
			seats,
		},
	};
}
