/**
 * A repository's settings, for its administrators, at GitHub's paths (everyone else gets the 404
 * page, as GitHub hides settings):
 * - `/{owner}/{repo}/settings`: name, description, website, default branch, features, pull request
 *   merge methods, visibility, archive (PATCH /repos/{owner}/{repo}'s service and rules);
 * - `/settings/access`: direct collaborators, pending invitations and teams, with their roles
 *   (add or invite, change, remove; the collaborators and teams services);
 * - `/settings/branches` and `/settings/branch_protection_rules/{new,id}`: branch protection rules
 *   (the branch protection service, the same rules and branch_protection_rule events as PUT …/protection);
 * - `/settings/hooks`, `/settings/hooks/{new,id}`, `/settings/hooks/{id}/deliveries/{delivery_id}`:
 *   webhooks (create, edit, delete), recent deliveries with their request and response, redeliver.
 * Every form carries the CSRF token; a refusal of a service shows the page again with its message.
 */
import type { ComponentChildren } from 'preact';
import { requireBranch, saveProtection, removeProtection } from '../../api/branches/service';
import type { ProtectionRow, ProtectionSettings } from '../../api/branches/store';
import { addCollaborator, assertPermissionFits, grantScope, removeCollaborator } from '../../api/collaborators/service';
import { rankPermission } from '../../api/collaborators/store';
import { MASKED_SECRET } from '../../api/hooks/render';
import { deleteHook, hookConfigValues, pingRepositoryHook, saveHook, uniqueEvents } from '../../api/hooks/service';
import { checkRepositoryUpdate, type UpdateRepositoryInput, updateRepository } from '../../api/repos/service';
import { assertOrganizationRepository, removeTeamRepository, setTeamRepository } from '../../api/teams/service';
import { teamAccess } from '../../auth/access/teams';
import type { RepoAccess } from '../../auth/access/types';
import { DomainError } from '../../model/errors';
import { REPO_PERMISSIONS, type RepoPermission } from '../../model/repo-permissions';
import type { AccountRow } from '../../model/rows';
import { isoSeconds } from '../../time';
import { REPOSITORY_HOOK_EVENTS } from '../../webhooks';
import type { DeliveryRow, HookRow, HookScope } from '../../webhooks/store';
import { repoFor } from '../access';
import { Avatar, Blankslate, Csrf, DangerButton, Pagination, pageNumber, RelativeTime } from '../components/layout';
import { RepoLayout, repoPath } from '../components/repo';
import { NotFound, Redirect, type WebContext, pathId } from '../context';
import { field } from '../forms';
import { Octicon } from '../octicons';
import type { PageAnswer, PageRoute } from '../page';
import { Flash, FormGroup } from '../components/form';

const PER_PAGE = 50;
/** Deliveries listed on a hook's page (GitHub shows the recent ones). */
const RECENT_DELIVERIES = 30;
/** Branches offered as the default branch. */
const BRANCH_CHOICES = 200;
/** Status check contexts one rule takes from the form. */
const MAX_CONTEXTS = 100;

/** GitHub's names of the repository roles, as its settings pages show them. */
const ROLE_LABELS: Record<RepoPermission, string> = {
	pull: 'Read',
	triage: 'Triage',
	push: 'Write',
	maintain: 'Maintain',
	admin: 'Admin',
};

type Access = RepoAccess & { permission: RepoPermission };
type Section = 'general' | 'access' | 'branches' | 'hooks';

/** The repository of the path, for its administrators only (everyone else: the 404 page). */
const adminRepo = (ctx: WebContext): Access => repoFor(ctx, 'admin');

/**
 * The sentence a refused change shows: the first errors[] message of a validation error, else the
 * error's message. Null for what is not a refusal of the domain (a fault, a redirect, the 404 page).
 */
function refusal(error: unknown): string | null {
	if (!(error instanceof DomainError) || error.status >= 500) return null;
	return error.errors?.find((item) => item.message)?.message ?? error.message;
}

/** Runs a change; a refusal becomes the page again with the message (422, or 403 for a refused role or policy). */
function attempt(ctx: WebContext, change: () => void, again: (error: string) => ComponentChildren): PageAnswer | null {
	try {
		ctx.app.transaction(change);
		return null;
	} catch (error) {
		const message = refusal(error);
		if (message === null) throw error;
		return { status: (error as DomainError).status === 403 ? 403 : 422, vnode: again(message) as PageAnswer['vnode'] };
	}
}

function SettingsFrame({
	ctx,
	access,
	section,
	title,
	children,
}: {
	ctx: WebContext;
	access: Access;
	section: Section;
	title: string;
	children: ComponentChildren;
}) {
	const base = `${repoPath(access)}/settings`;
	const item = (key: Section, href: string, icon: 'gear' | 'people' | 'git-branch' | 'link', label: string) => (
		<a class="menu-item" href={href} aria-current={section === key ? 'page' : undefined}>
			<Octicon name={icon} class="mr-2" />
			{label}
		</a>
	);
	return (
		<RepoLayout ctx={ctx} access={access} tab="settings" title={`${title} · ${access.owner.login}/${access.repo.name}`}>
			<div class="d-flex flex-wrap gutter-md">
				<div class="col-12 col-md-3">
					<nav class="menu" aria-label="Repository settings">
						{item('general', base, 'gear', 'General')}
						{item('access', `${base}/access`, 'people', 'Collaborators and teams')}
						{item('branches', `${base}/branches`, 'git-branch', 'Branches')}
						{item('hooks', `${base}/hooks`, 'link', 'Webhooks')}
					</nav>
				</div>
				<div class="col-12 col-md-9">
					{access.repo.archived === 1 && (
						<div class="flash flash-warn mb-3">This repository has been archived. It is read-only until it is unarchived.</div>
					)}
					{children}
				</div>
			</div>
		</RepoLayout>
	);
}

/** A labelled checkbox with a note. */
function Check({
	name,
	label,
	checked,
	note,
	disabled,
}: {
	name: string;
	label: string;
	checked: boolean;
	note?: string;
	disabled?: boolean;
}) {
	return (
		<div class="form-checkbox">
			<label>
				<input type="checkbox" name={name} value="1" checked={checked} disabled={disabled} /> {label}
			</label>
			{note && <p class="note">{note}</p>}
		</div>
	);
}

/** A labelled text input. */
function TextField({
	id,
	name,
	label,
	value,
	max,
	type = 'text',
	required,
	disabled,
	note,
}: {
	id: string;
	name: string;
	label: string;
	value: string;
	max: number;
	type?: 'text' | 'url' | 'password';
	required?: boolean;
	disabled?: boolean;
	note?: string;
}) {
	return (
		<FormGroup id={id} label={label}>
			<input
				id={id}
				class="form-control width-full"
				type={type}
				name={name}
				value={value}
				maxLength={max}
				required={required}
				disabled={disabled}
				autocomplete={type === 'password' ? 'new-password' : undefined}
			/>
			{note && <p class="note">{note}</p>}
		</FormGroup>
	);
}

/** The roles a repository of `owner` offers (personal repositories: read, write and admin). */
const rolesFor = (owner: AccountRow): RepoPermission[] =>
	(REPO_PERMISSIONS as readonly RepoPermission[]).filter((p) => owner.type === 'Organization' || (p !== 'triage' && p !== 'maintain'));

function RoleSelect({ id, owner, value, label }: { id: string; owner: AccountRow; value: RepoPermission; label: string }) {
	return (
		<select id={id} class="form-select" name="permission" aria-label={label}>
			{rolesFor(owner).map((p) => (
				<option key={p} value={p} selected={p === value}>
					{ROLE_LABELS[p]}
				</option>
			))}
		</select>
	);
}

/** A form field naming a repository role. @throws DomainError 422 for anything else */
function roleField(ctx: WebContext, owner: AccountRow): RepoPermission {
	const value = field(ctx, 'permission', 20);
	if (!(REPO_PERMISSIONS as readonly string[]).includes(value))
		throw new DomainError('ValidationFailed', 'Validation Failed', {
			errors: [{ resource: 'Repository', field: 'permission', code: 'invalid', message: 'Choose a role.' }],
		});
	assertPermissionFits(owner, value as RepoPermission, 'permission');
	return value as RepoPermission;
}

/** A sentence-only refusal of a form's input (422). */
const invalid = (message: string) => new DomainError('Unprocessable', message);

// ---------------------------------------------------------------------------------------------
// General

function general(ctx: WebContext, error?: string) {
	const access = adminRepo(ctx);
	const { repo, owner } = access;
	const base = `${repoPath(access)}/settings`;
	const archived = repo.archived === 1;
	const branches = ctx.app.stores.branches.list(repo.id, null, BRANCH_CHOICES, 0).rows.map((b) => b.name);
	if (!branches.includes(repo.default_branch)) branches.unshift(repo.default_branch);
	const notice = ctx.query.get('saved') === '1' ? 'Settings saved.' : null;
	const section = (name: 'general' | 'features' | 'merge') => <input type="hidden" name="section" value={name} />;
	return (
		<SettingsFrame ctx={ctx} access={access} section="general" title="General">
			<h2 class="f2 text-normal border-bottom pb-2 mb-3">General</h2>
			<Flash error={error} notice={notice} />
			<form method="post" action={base} class="mb-5">
				<Csrf ctx={ctx} />
				{section('general')}
				<TextField id="repo-name" name="name" label="Repository name" value={repo.name} max={100} required disabled={archived} />
				<TextField
					id="repo-description"
					name="description"
					label="Description"
					value={repo.description ?? ''}
					max={350}
					disabled={archived}
				/>
				<TextField id="repo-homepage" name="homepage" label="Website" value={repo.homepage ?? ''} max={255} disabled={archived} />
				<FormGroup id="repo-default-branch" label="Default branch">
					<select id="repo-default-branch" class="form-select" name="default_branch" disabled={archived}>
						{branches.map((name) => (
							<option key={name} value={name} selected={name === repo.default_branch}>
								{name}
							</option>
						))}
					</select>
					<p class="note">The base branch of new pull requests and of code pushes without a branch.</p>
				</FormGroup>
				<button type="submit" class="btn" disabled={archived}>
					Save
				</button>
			</form>

			<h3 class="f3 text-normal border-bottom pb-2 mb-3">Features</h3>
			<form method="post" action={base} class="mb-5">
				<Csrf ctx={ctx} />
				{section('features')}
				<Check name="is_template" label="Template repository" checked={repo.is_template === 1} disabled={archived} />
				<Check name="has_wiki" label="Wikis" checked={repo.has_wiki === 1} disabled={archived} />
				<Check name="has_issues" label="Issues" checked={repo.has_issues === 1} disabled={archived} />
				<Check name="has_discussions" label="Discussions" checked={repo.has_discussions === 1} disabled={archived} />
				<Check name="has_projects" label="Projects" checked={repo.has_projects === 1} disabled={archived} />
				{repo.visibility !== 'public' && (
					<Check
						name="allow_forking"
						label="Allow forking"
						checked={repo.allow_forking === 1}
						disabled={archived}
						note="People with read access may fork this repository."
					/>
				)}
				<button type="submit" class="btn" disabled={archived}>
					Save features
				</button>
			</form>

			<h3 class="f3 text-normal border-bottom pb-2 mb-3">Pull Requests</h3>
			<form method="post" action={base} class="mb-5">
				<Csrf ctx={ctx} />
				{section('merge')}
				<p class="mb-2 color-fg-muted">
					When merging pull requests, you can allow any combination of these methods (at least one).
				</p>
				<Check name="allow_merge_commit" label="Allow merge commits" checked={repo.allow_merge_commit === 1} disabled={archived} />
				<Check name="allow_squash_merge" label="Allow squash merging" checked={repo.allow_squash_merge === 1} disabled={archived} />
				<Check name="allow_rebase_merge" label="Allow rebase merging" checked={repo.allow_rebase_merge === 1} disabled={archived} />
				<Check
					name="allow_update_branch"
					label="Always suggest updating pull request branches"
					checked={repo.allow_update_branch === 1}
					disabled={archived}
				/>
				<Check name="allow_auto_merge" label="Allow auto-merge" checked={repo.allow_auto_merge === 1} disabled={archived} />
				<Check
					name="delete_branch_on_merge"
					label="Automatically delete head branches"
					checked={repo.delete_branch_on_merge === 1}
					disabled={archived}
				/>
				<button type="submit" class="btn" disabled={archived}>
					Save merge settings
				</button>
			</form>

			<h3 class="f3 text-normal mb-2">Danger Zone</h3>
			<div class="Box color-border-danger">
				<div class="Box-row d-flex flex-items-center">
					<div class="flex-auto">
						<strong>Change repository visibility</strong>
						<p class="mb-0 f6 color-fg-muted">This repository is currently {repo.visibility}.</p>
					</div>
					<form method="post" action={`${base}/visibility`} class="d-flex flex-items-center">
						<Csrf ctx={ctx} />
						<label class="gs-sr-only" for="repo-visibility">
							Visibility
						</label>
						<select id="repo-visibility" class="form-select mr-2" name="visibility" disabled={archived}>
							{(['public', 'private', ...(owner.type === 'Organization' ? ['internal'] : [])] as const).map((v) => (
								<option key={v} value={v} selected={v === repo.visibility}>
									{v[0].toUpperCase() + v.slice(1)}
								</option>
							))}
						</select>
						<button type="submit" class="btn btn-danger" disabled={archived}>
							Change visibility
						</button>
					</form>
				</div>
				<div class="Box-row d-flex flex-items-center">
					<div class="flex-auto">
						<strong>{archived ? 'Unarchive this repository' : 'Archive this repository'}</strong>
						<p class="mb-0 f6 color-fg-muted">
							{archived ? 'Make this repository writable again.' : 'Mark this repository archived and read-only.'}
						</p>
					</div>
					<form method="post" action={`${base}/archive`}>
						<Csrf ctx={ctx} />
						<input type="hidden" name="archived" value={archived ? '0' : '1'} />
						<button type="submit" class="btn btn-danger">
							{archived ? 'Unarchive this repository' : 'Archive this repository'}
						</button>
					</form>
				</div>
			</div>
		</SettingsFrame>
	);
}

const FEATURES = ['is_template', 'has_wiki', 'has_issues', 'has_discussions', 'has_projects'] as const;
const MERGE = [
	'allow_merge_commit',
	'allow_squash_merge',
	'allow_rebase_merge',
	'allow_update_branch',
	'allow_auto_merge',
	'delete_branch_on_merge',
] as const;

/** Applies a repository change through the repository service, after its rules; a refusal shows the page again. */
function applyUpdate(ctx: WebContext, access: Access, input: UpdateRepositoryInput) {
	const user = ctx.user!;
	let updated = access.repo;
	const answer = attempt(
		ctx,
		() => {
			checkRepositoryUpdate(ctx.app, access.repo, access.owner, input, { userId: user.id, installation: false });
			updated = updateRepository(ctx.app, access.repo, access.owner, input, { actorId: user.id, now: isoSeconds(ctx.now) });
		},
		(error) => general(ctx, error),
	);
	if (answer) return answer;
	throw new Redirect(`/${access.owner.login}/${updated.name}/settings?saved=1`, 303);
}

/** POST /{owner}/{repo}/settings: one section of the general settings (its fields only). */
function saveGeneral(ctx: WebContext) {
	const access = adminRepo(ctx);
	const input: UpdateRepositoryInput = {};
	const section = field(ctx, 'section', 20);
	const on = (name: string) => ctx.form?.get(name) === '1';
	if (section === 'general') {
		const name = field(ctx, 'name', 200);
		if (!name) return { status: 422, vnode: general(ctx, 'The repository name cannot be blank.') };
		if (name !== access.repo.name) input.name = name;
		input.description = field(ctx, 'description', 350) || null;
		input.homepage = field(ctx, 'homepage', 255) || null;
		const branch = field(ctx, 'default_branch', 255);
		if (branch && branch !== access.repo.default_branch) {
			if (!ctx.app.stores.git.ref(access.repo.id, `refs/heads/${branch}`))
				return { status: 422, vnode: general(ctx, `There is no branch named ${branch}.`) };
			input.default_branch = branch;
		}
	} else if (section === 'features') {
		for (const name of FEATURES) input[name] = on(name);
		if (access.repo.visibility !== 'public') input.allow_forking = on('allow_forking');
	} else if (section === 'merge') {
		for (const name of MERGE) input[name] = on(name);
		if (!input.allow_merge_commit && !input.allow_squash_merge && !input.allow_rebase_merge)
			return { status: 422, vnode: general(ctx, 'You must allow at least one merge method.') };
	} else throw new NotFound();
	return applyUpdate(ctx, access, input);
}

/** POST /{owner}/{repo}/settings/visibility. */
function saveVisibility(ctx: WebContext) {
	const access = adminRepo(ctx);
	const visibility = field(ctx, 'visibility', 20);
	if (visibility !== 'public' && visibility !== 'private' && visibility !== 'internal')
		return { status: 422, vnode: general(ctx, 'Choose public, private or internal.') };
	return applyUpdate(ctx, access, { visibility });
}

/** POST /{owner}/{repo}/settings/archive: archived=1 archives, archived=0 unarchives. */
function saveArchive(ctx: WebContext) {
	const access = adminRepo(ctx);
	return applyUpdate(ctx, access, { archived: field(ctx, 'archived', 1) === '1' });
}

// ---------------------------------------------------------------------------------------------
// Collaborators and teams

function accessPage(ctx: WebContext, error?: string) {
	const access = adminRepo(ctx);
	const { repo, owner } = access;
	const { app } = ctx;
	const base = `${repoPath(access)}/settings/access`;
	const page = pageNumber(ctx);
	const { rows, total } = app.stores.collaborators.list(grantScope(repo, owner), {
		affiliation: 'direct',
		minRank: 1,
		limit: PER_PAGE,
		offset: (page - 1) * PER_PAGE,
	});
	const invitations = app.stores.collaborators.forRepository(repo.id, PER_PAGE, 0);
	const invitees = app.stores.accounts.mapByIds(invitations.rows.map((row) => row.invitee_id));
	const now = isoSeconds(ctx.now);
	const teams = owner.type === 'Organization' ? app.stores.teams.repositoryTeams(repo.id, PER_PAGE) : [];
	const notice = ctx.query.get('invited')
		? `Invited ${ctx.query.get('invited')}: they become a collaborator when they accept.`
		: ctx.query.get('saved') === '1'
			? 'Access saved.'
			: null;
	return (
		<SettingsFrame ctx={ctx} access={access} section="access" title="Collaborators and teams">
			<h2 class="f2 text-normal border-bottom pb-2 mb-3">Collaborators and teams</h2>
			<Flash error={error} notice={notice} />
			<h3 class="f4 mb-2">Manage access</h3>
			<div class="Box mb-3">
				{rows.map((user) => {
					const role = rankPermission(user.rank);
					return (
						<div class="Box-row d-flex flex-items-center" key={user.id}>
							<Avatar id={user.id} login={user.login} />
							<a class="ml-2 flex-auto" href={`/${user.login}`}>
								{user.login}
								{user.name && <span class="color-fg-muted ml-2">{user.name}</span>}
							</a>
							<form method="post" action={`${base}/collaborators/${user.login}`} class="d-flex flex-items-center mr-2">
								<Csrf ctx={ctx} />
								<RoleSelect id={`role-${user.id}`} owner={owner} value={role} label={`Role of ${user.login}`} />
								<button type="submit" class="btn btn-sm ml-1">
									Change
								</button>
							</form>
							<DangerButton ctx={ctx} action={`${base}/collaborators/${user.login}/remove`} label={`Remove ${user.login}`}>
								Remove
							</DangerButton>
						</div>
					);
				})}
				{invitations.rows.map((invitation) => {
					const invitee = invitees.get(invitation.invitee_id);
					const expired = invitation.expires_at <= now;
					return (
						<div class="Box-row d-flex flex-items-center" key={`i${invitation.id}`}>
							{invitee && <Avatar id={invitee.id} login={invitee.login} />}
							<span class="ml-2 flex-auto">
								{invitee?.login}{' '}
								<span class={`Label ${expired ? 'Label--danger' : 'Label--attention'}`}>
									{expired ? 'Invitation expired' : 'Pending invite'}
								</span>
								<span class="f6 color-fg-muted ml-2">{ROLE_LABELS[invitation.permission]}</span>
							</span>
							<form method="post" action={`${base}/invitations/${invitation.id}/remove`}>
								<Csrf ctx={ctx} />
								<button
									type="submit"
									class="btn btn-sm"
									aria-label={`Cancel the invitation of ${invitee?.login ?? 'a user'}`}
								>
									Cancel invite
								</button>
							</form>
						</div>
					);
				})}
				{rows.length === 0 && invitations.rows.length === 0 && (
					<div class="Box-row color-fg-muted">No one has been given direct access to this repository yet.</div>
				)}
			</div>
			<Pagination ctx={ctx} page={page} hasNext={page * PER_PAGE < total} />
			<form method="post" action={`${base}/collaborators`} class="Box p-3 mb-5">
				<Csrf ctx={ctx} />
				<h3 class="f4 mb-2">Add people</h3>
				<div class="d-flex flex-items-end">
					<FormGroup id="collaborator-login" label="Username" extra="my-0 mr-2 flex-auto">
						<input id="collaborator-login" class="form-control width-full" type="text" name="login" maxLength={39} required />
					</FormGroup>
					<FormGroup id="collaborator-role" label="Role" extra="my-0 mr-2">
						<RoleSelect id="collaborator-role" owner={owner} value="push" label="Role" />
					</FormGroup>
					<button type="submit" class="btn btn-primary">
						Add
					</button>
				</div>
				<p class="note">
					{owner.type === 'Organization'
						? `Members of ${owner.login} are added at once; anyone else gets an invitation.`
						: 'They get an invitation and become a collaborator when they accept it.'}
				</p>
			</form>
			{owner.type === 'Organization' && (
				<div>
					<h3 class="f4 mb-2">Teams</h3>
					<div class="Box mb-3">
						{teams.map((team) => (
							<div class="Box-row d-flex flex-items-center" key={team.id}>
								<Octicon name="people" class="mr-2 color-fg-muted" />
								<a class="flex-auto" href={`/orgs/${owner.login}/teams/${team.slug}`}>
									{team.name}
								</a>
								<form method="post" action={`${base}/teams/${team.slug}`} class="d-flex flex-items-center mr-2">
									<Csrf ctx={ctx} />
									<RoleSelect
										id={`team-role-${team.id}`}
										owner={owner}
										value={team.granted}
										label={`Role of the team ${team.name}`}
									/>
									<button type="submit" class="btn btn-sm ml-1">
										Change
									</button>
								</form>
								<DangerButton ctx={ctx} action={`${base}/teams/${team.slug}/remove`} label={`Remove the team ${team.name}`}>
									Remove
								</DangerButton>
							</div>
						))}
						{teams.length === 0 && <div class="Box-row color-fg-muted">No team has access to this repository.</div>}
					</div>
					<form method="post" action={`${base}/teams`} class="Box p-3">
						<Csrf ctx={ctx} />
						<h3 class="f4 mb-2">Add a team</h3>
						<div class="d-flex flex-items-end">
							<FormGroup id="team-slug" label="Team (its slug)" extra="my-0 mr-2 flex-auto">
								<input id="team-slug" class="form-control width-full" type="text" name="team" maxLength={255} required />
							</FormGroup>
							<FormGroup id="team-role" label="Role" extra="my-0 mr-2">
								<RoleSelect id="team-role" owner={owner} value="pull" label="Role" />
							</FormGroup>
							<button type="submit" class="btn btn-primary">
								Add team
							</button>
						</div>
					</form>
				</div>
			)}
		</SettingsFrame>
	);
}

/** The user a form or the path names; a missing one is a refusal on the form, not the 404 page. */
function namedUser(ctx: WebContext, login: string): AccountRow {
	const user = /^[A-Za-z0-9-]{1,39}$/.test(login) ? ctx.app.stores.accounts.user(login) : undefined;
	if (!user) throw invalid(`There is no user named ${login || '(blank)'}.`);
	return user;
}

/** POST …/settings/access/collaborators: adds a collaborator, or invites them (the collaborators service). */
function addPerson(ctx: WebContext) {
	const access = adminRepo(ctx);
	const actor = ctx.user!;
	let invited: string | null = null;
	const answer = attempt(
		ctx,
		() => {
			const user = namedUser(ctx, field(ctx, 'login', 39));
			const permission = roleField(ctx, access.owner);
			const result = addCollaborator(ctx.app, access.repo, access.owner, user, permission, actor.id, ctx.now);
			if (result.invitation) invited = user.login;
		},
		(error) => accessPage(ctx, error),
	);
	if (answer) return answer;
	throw new Redirect(`${repoPath(access)}/settings/access?${invited ? `invited=${invited}` : 'saved=1'}`, 303);
}

/** POST …/settings/access/collaborators/{login}: a direct collaborator's new role. */
function changePerson(ctx: WebContext) {
	const access = adminRepo(ctx);
	const actor = ctx.user!;
	const answer = attempt(
		ctx,
		() => {
			const user = namedUser(ctx, ctx.params.login);
			if (!ctx.app.stores.repos.collaboratorPermission(access.repo.id, user.id)) throw new NotFound();
			addCollaborator(ctx.app, access.repo, access.owner, user, roleField(ctx, access.owner), actor.id, ctx.now);
		},
		(error) => accessPage(ctx, error),
	);
	if (answer) return answer;
	throw new Redirect(`${repoPath(access)}/settings/access?saved=1`, 303);
}

/** POST …/settings/access/collaborators/{login}/remove: removes a direct collaborator (the collaborators service). */
function removePerson(ctx: WebContext): never {
	const access = adminRepo(ctx);
	const login = ctx.params.login;
	const user = /^[A-Za-z0-9-]{1,39}$/.test(login) ? ctx.app.stores.accounts.user(login) : undefined;
	if (!user) throw new NotFound();
	ctx.app.transaction(() => removeCollaborator(ctx.app, access.repo, access.owner, user, ctx.user!.id));
	throw new Redirect(`${repoPath(access)}/settings/access?saved=1`, 303);
}

/** POST …/settings/access/invitations/{id}/remove: cancels a pending invitation. */
function cancelInvitation(ctx: WebContext): never {
	const access = adminRepo(ctx);
	const id = pathId(ctx);
	const row = id === null ? undefined : ctx.app.stores.collaborators.invitation(id);
	if (!row || row.repo_id !== access.repo.id) throw new NotFound();
	ctx.app.transaction(() => ctx.app.stores.collaborators.removeInvitation(row.id));
	throw new Redirect(`${repoPath(access)}/settings/access?saved=1`, 303);
}

/** The organization's team `slug` the viewer may see; another one is a refusal on the form. */
function namedTeam(ctx: WebContext, owner: AccountRow, slug: string) {
	const team = /^[a-z0-9_-]{1,255}$/i.test(slug) ? ctx.app.stores.teams.bySlug(owner.id, slug.toLowerCase()) : undefined;
	if (!team || !teamAccess(ctx.viewer, team)) throw invalid(`There is no team named ${slug || '(blank)'} in ${owner.login}.`);
	return team;
}

/** POST …/settings/access/teams and …/teams/{slug}: gives a team a role on the repository (the teams service). */
function saveTeam(ctx: WebContext) {
	const access = adminRepo(ctx);
	if (access.owner.type !== 'Organization') throw new NotFound();
	const answer = attempt(
		ctx,
		() => {
			const team = namedTeam(ctx, access.owner, ctx.params.slug ?? field(ctx, 'team', 255));
			assertOrganizationRepository(ctx.app, access.owner.id, access.repo);
			const permission = roleField(ctx, access.owner);
			setTeamRepository(ctx.app, access.owner, team, access.repo, { permission, roleId: null }, ctx.user!.id, isoSeconds(ctx.now));
		},
		(error) => accessPage(ctx, error),
	);
	if (answer) return answer;
	throw new Redirect(`${repoPath(access)}/settings/access?saved=1`, 303);
}

/** POST …/settings/access/teams/{slug}/remove. */
function removeTeam(ctx: WebContext): never {
	const access = adminRepo(ctx);
	if (access.owner.type !== 'Organization') throw new NotFound();
	const team = ctx.app.stores.teams.bySlug(access.owner.id, ctx.params.slug.toLowerCase());
	if (!team || !teamAccess(ctx.viewer, team)) throw new NotFound();
	ctx.app.transaction(() => removeTeamRepository(ctx.app, access.owner, team, access.repo, ctx.user!.id));
	throw new Redirect(`${repoPath(access)}/settings/access?saved=1`, 303);
}

// ---------------------------------------------------------------------------------------------
// Branch protection

/** What a rule requires, in a few words. */
function ruleSummary(settings: ProtectionSettings): string[] {
	const out: string[] = [];
	const reviews = settings.required_pull_request_reviews;
	if (reviews)
		out.push(`${reviews.required_approving_review_count} approving review${reviews.required_approving_review_count === 1 ? '' : 's'}`);
	if (settings.required_status_checks)
		out.push(
			`status checks${settings.required_status_checks.contexts.length ? ` (${settings.required_status_checks.contexts.join(', ')})` : ''}`,
		);
	if (settings.enforce_admins) out.push('includes administrators');
	if (settings.required_linear_history) out.push('linear history');
	if (settings.allow_force_pushes) out.push('force pushes allowed');
	if (settings.allow_deletions) out.push('deletions allowed');
	if (settings.lock_branch) out.push('locked');
	return out;
}

/**
 * A settings page's list: its heading with the add button, the flash, an introduction, the rows in
 * a box (or a blank slate when there are none) and the pages.
 * @param empty the blank slate, or false when there are rows
 */
function SettingsList({
	ctx,
	title,
	add,
	notice,
	intro,
	empty,
	hasNext,
	children,
}: {
	ctx: WebContext;
	title: string;
	add: { href: string; label: string };
	notice: string | null;
	intro: string;
	empty: false | { icon: Parameters<typeof Blankslate>[0]['icon']; title: string };
	hasNext: boolean;
	children: ComponentChildren;
}) {
	return (
		<>
			<div class="d-flex flex-items-center border-bottom pb-2 mb-3">
				<h2 class="f2 text-normal flex-auto">{title}</h2>
				<a class="btn" href={add.href}>
					{add.label}
				</a>
			</div>
			<Flash notice={notice} />
			<p class="mb-3 color-fg-muted">{intro}</p>
			{empty ? <Blankslate icon={empty.icon} title={empty.title} /> : <div class="Box">{children}</div>}
			<Pagination ctx={ctx} page={pageNumber(ctx)} hasNext={hasNext} />
		</>
	);
}

/** A list row's Edit link (to `href`) and Delete button (posting to `href`/delete); `what` names the row for assistive technology. */
function EditDelete({ ctx, href, what }: { ctx: WebContext; href: string; what: string }) {
	return (
		<>
			<a class="btn btn-sm mr-2" href={href} aria-label={`Edit ${what}`}>
				Edit
			</a>
			<DangerButton ctx={ctx} action={`${href}/delete`} label={`Delete ${what}`}>
				Delete
			</DangerButton>
		</>
	);
}

function branchRules(ctx: WebContext) {
	const access = adminRepo(ctx);
	const base = `${repoPath(access)}/settings`;
	const page = pageNumber(ctx);
	const { rows, total } = ctx.app.stores.branches.list(access.repo.id, true, PER_PAGE, (page - 1) * PER_PAGE);
	const notice =
		ctx.query.get('saved') === '1' ? 'Branch protection rule saved.' : ctx.query.get('deleted') === '1' ? 'Rule deleted.' : null;
	return (
		<SettingsFrame ctx={ctx} access={access} section="branches" title="Branches">
			<SettingsList
				ctx={ctx}
				title="Branch protection rules"
				add={{ href: `${base}/branch_protection_rules/new`, label: 'Add rule' }}
				notice={notice}
				intro="Protect a branch from force pushes and deletion, and require reviews or status checks before merging."
				empty={rows.length === 0 && { icon: 'shield-lock', title: 'No branch protection rules defined yet' }}
				hasNext={page * PER_PAGE < total}
			>
				{rows.map((branch) => {
					const rule = ctx.app.stores.branches.protection(access.repo.id, branch.name);
					if (!rule) return null;
					return (
						<div class="Box-row d-flex flex-items-center" key={rule.id}>
							<Octicon name="shield-lock" class="mr-2 color-fg-muted" />
							<div class="flex-auto min-width-0">
								<strong class="branch-name">{rule.branch}</strong>
								<div class="f6 color-fg-muted">{ruleSummary(rule.settings).join(' · ') || 'no requirements'}</div>
							</div>
							<EditDelete ctx={ctx} href={`${base}/branch_protection_rules/${rule.id}`} what={`the rule of ${rule.branch}`} />
						</div>
					);
				})}
			</SettingsList>
		</SettingsFrame>
	);
}

/** The rule of the path's {id}, else the 404 page. */
function ruleOf(ctx: WebContext, access: Access): ProtectionRow {
	const id = pathId(ctx);
	const rule = id === null ? undefined : ctx.app.stores.branches.protectionById(access.repo.id, id);
	if (!rule) throw new NotFound();
	return rule;
}

function ruleForm(ctx: WebContext, rule: ProtectionRow | null, error?: string) {
	const access = adminRepo(ctx);
	const base = `${repoPath(access)}/settings`;
	const s = rule?.settings;
	const reviews = s?.required_pull_request_reviews ?? null;
	const checks = s?.required_status_checks ?? null;
	// A failed submission shows what was sent.
	const sent = error && ctx.form ? ctx.form : null;
	const on = (name: string, stored: boolean) => (sent ? sent.get(name) === '1' : stored);
	const text = (name: string, stored: string) => (sent ? (sent.get(name) ?? '') : stored);
	/** One checkbox per boolean setting of `stored`: named as its field, with its label and note. */
	const flags = <T,>(stored: T | null | undefined, list: ReadonlyArray<readonly [keyof T & string, string, string?]>) =>
		list.map(([name, label, note]) => (
			<Check key={name} name={name} label={label} checked={on(name, stored?.[name] === true)} note={note} />
		));
	const branches = ctx.app.stores.branches.list(access.repo.id, false, BRANCH_CHOICES, 0).rows;
	return (
		<SettingsFrame ctx={ctx} access={access} section="branches" title="Branch protection rule">
			<h2 class="f2 text-normal border-bottom pb-2 mb-3">{rule ? `Edit the rule of ${rule.branch}` : 'Branch protection rule'}</h2>
			<Flash error={error} />
			<form method="post" action={rule ? `${base}/branch_protection_rules/${rule.id}` : `${base}/branch_protection_rules`}>
				<Csrf ctx={ctx} />
				{rule ? (
					<p class="mb-3">
						Branch: <strong class="branch-name">{rule.branch}</strong>
					</p>
				) : (
					<FormGroup id="rule-branch" label="Branch name">
						<input
							id="rule-branch"
							class="form-control width-full"
							type="text"
							name="branch"
							value={text('branch', '')}
							maxLength={255}
							required
							list="rule-branches"
						/>
						<datalist id="rule-branches">
							{branches.map((b) => (
								<option key={b.name} value={b.name} />
							))}
						</datalist>
						<p class="note">An existing branch of this repository.</p>
					</FormGroup>
				)}
				<h3 class="f4 mt-3 mb-2">Protect matching branches</h3>
				<Check
					name="require_reviews"
					label="Require a pull request before merging"
					checked={on('require_reviews', reviews !== null)}
					note="Commits must be made to another branch and reach this one through an approved pull request."
				/>
				<div class="ml-4">
					<FormGroup id="rule-approvals" label="Required approvals">
						<select id="rule-approvals" class="form-select" name="required_approving_review_count">
							{[0, 1, 2, 3, 4, 5, 6].map((n) => (
								<option
									key={n}
									value={String(n)}
									selected={
										String(n) ===
										text('required_approving_review_count', String(reviews?.required_approving_review_count ?? 1))
									}
								>
									{n}
								</option>
							))}
						</select>
					</FormGroup>
					{flags(reviews, [
						['dismiss_stale_reviews', 'Dismiss stale pull request approvals when new commits are pushed'],
						['require_code_owner_reviews', 'Require review from Code Owners'],
						['require_last_push_approval', 'Require approval of the most recent reviewable push'],
					])}
				</div>
				<Check
					name="require_status_checks"
					label="Require status checks to pass before merging"
					checked={on('require_status_checks', checks !== null)}
				/>
				<div class="ml-4">
					<Check
						name="strict"
						label="Require branches to be up to date before merging"
						checked={on('strict', checks?.strict ?? false)}
					/>
					<FormGroup id="rule-contexts" label="Status checks that are required (one per line)">
						<textarea id="rule-contexts" class="form-control width-full" name="contexts" rows={3} maxLength={10000}>
							{text('contexts', checks?.contexts.join('\n') ?? '')}
						</textarea>
					</FormGroup>
				</div>
				{flags(s, [
					['required_conversation_resolution', 'Require conversation resolution before merging'],
					['required_linear_history', 'Require linear history', 'Merge commits may not be pushed to this branch.'],
					['lock_branch', 'Lock branch', 'The branch is read-only.'],
					['enforce_admins', 'Do not allow bypassing the above settings', 'The rules apply to administrators too.'],
				])}
				<h3 class="f4 mt-3 mb-2">Rules applied to everyone including administrators</h3>
				{flags(s, [
					['allow_force_pushes', 'Allow force pushes'],
					['allow_deletions', 'Allow deletions'],
				])}
				<button type="submit" class="btn btn-primary mt-3">
					{rule ? 'Save changes' : 'Create'}
				</button>
			</form>
		</SettingsFrame>
	);
}

/** A rule's settings from the form; what the form does not show (restrictions, allowances, signatures) stays as it was. */
function ruleSettings(ctx: WebContext, current: ProtectionSettings | null): ProtectionSettings {
	const on = (name: string) => ctx.form?.get(name) === '1';
	const count = Number(field(ctx, 'required_approving_review_count', 2) || '1');
	if (!Number.isInteger(count) || count < 0 || count > 6) throw invalid('Required approvals must be between 0 and 6.');
	const contexts = [
		...new Set(
			(ctx.form?.get('contexts') ?? '')
				.split(/[\r\n,]+/)
				.map((c) => c.trim().slice(0, 255))
				.filter(Boolean),
		),
	];
	if (contexts.length > MAX_CONTEXTS) throw invalid(`A rule takes at most ${MAX_CONTEXTS} status checks.`);
	const previousChecks = new Map((current?.required_status_checks?.checks ?? []).map((c) => [c.context, c.app_id]));
	const reviews = current?.required_pull_request_reviews ?? null;
	return {
		required_status_checks: on('require_status_checks')
			? {
					strict: on('strict'),
					contexts,
					// A context keeps the app it was tied to (set through the API).
					checks: contexts.map((context) => ({ context, app_id: previousChecks.get(context) ?? null })),
				}
			: null,
		enforce_admins: on('enforce_admins'),
		required_pull_request_reviews: on('require_reviews')
			? {
					dismiss_stale_reviews: on('dismiss_stale_reviews'),
					require_code_owner_reviews: on('require_code_owner_reviews'),
					required_approving_review_count: count,
					require_last_push_approval: on('require_last_push_approval'),
					dismissal_restrictions: reviews?.dismissal_restrictions ?? null,
					bypass_pull_request_allowances: reviews?.bypass_pull_request_allowances ?? null,
				}
			: null,
		restrictions: current?.restrictions ?? null,
		required_signatures: current?.required_signatures ?? false,
		required_linear_history: on('required_linear_history'),
		allow_force_pushes: on('allow_force_pushes'),
		allow_deletions: on('allow_deletions'),
		block_creations: current?.block_creations ?? false,
		required_conversation_resolution: on('required_conversation_resolution'),
		lock_branch: on('lock_branch'),
		allow_fork_syncing: current?.allow_fork_syncing ?? false,
	};
}

/** POST …/settings/branch_protection_rules (new) and …/{id} (edit): saved through the branch protection service. */
function saveRule(ctx: WebContext) {
	const access = adminRepo(ctx);
	const rule = ctx.params.id === undefined ? null : ruleOf(ctx, access);
	const answer = attempt(
		ctx,
		() => {
			let branch = rule?.branch;
			if (!branch) {
				const name = field(ctx, 'branch', 255).replace(/^refs\/heads\//, '');
				try {
					branch = requireBranch(ctx.app, access.repo.id, name).name;
				} catch {
					throw invalid(`There is no branch named ${name || '(blank)'} in this repository.`);
				}
				if (ctx.app.stores.branches.protection(access.repo.id, branch))
					throw invalid(`The branch ${branch} already has a rule; edit that one.`);
			}
			saveProtection(ctx.app, access, branch, ruleSettings(ctx, rule?.settings ?? null), isoSeconds(ctx.now), ctx.user!.id);
		},
		(error) => ruleForm(ctx, rule, error),
	);
	if (answer) return answer;
	throw new Redirect(`${repoPath(access)}/settings/branches?saved=1`, 303);
}

/** POST …/settings/branch_protection_rules/{id}/delete. */
function deleteRule(ctx: WebContext): never {
	const access = adminRepo(ctx);
	const rule = ruleOf(ctx, access);
	ctx.app.transaction(() => removeProtection(ctx.app, access, rule.branch, ctx.user!.id));
	throw new Redirect(`${repoPath(access)}/settings/branches?deleted=1`, 303);
}

// ---------------------------------------------------------------------------------------------
// Webhooks

const hookScope = (access: Access): HookScope => ({ kind: 'repository', repoId: access.repo.id });

function HookState({ hook }: { hook: HookRow }) {
	const status = hook.last_response_status;
	const [icon, color, label] =
		status === 'active'
			? (['check-circle-fill', 'color-fg-success', 'Last delivery was successful'] as const)
			: status === 'unused'
				? (['dot', 'color-fg-muted', 'No deliveries yet'] as const)
				: (['alert', 'color-fg-danger', 'Last delivery failed'] as const);
	return (
		<span class={`mr-2 ${color}`} title={label}>
			<Octicon name={icon} />
			<span class="gs-sr-only">{label}</span>
		</span>
	);
}

function hooksPage(ctx: WebContext) {
	const access = adminRepo(ctx);
	const base = `${repoPath(access)}/settings/hooks`;
	const page = pageNumber(ctx);
	const { rows, total } = ctx.app.stores.webhooks.page(hookScope(access), PER_PAGE, (page - 1) * PER_PAGE);
	const notice = ctx.query.get('deleted') === '1' ? 'Webhook deleted.' : null;
	return (
		<SettingsFrame ctx={ctx} access={access} section="hooks" title="Webhooks">
			<SettingsList
				ctx={ctx}
				title="Webhooks"
				add={{ href: `${base}/new`, label: 'Add webhook' }}
				notice={notice}
				intro="Webhooks send a POST request to the URLs you choose when events happen in this repository."
				empty={rows.length === 0 && { icon: 'link', title: 'No webhooks yet' }}
				hasNext={page * PER_PAGE < total}
			>
				{rows.map((hook) => (
					<div class="Box-row d-flex flex-items-center" key={hook.id}>
						<HookState hook={hook} />
						<div class="flex-auto min-width-0">
							<a class="text-bold gs-mono" href={`${base}/${hook.id}`}>
								{hook.url}
							</a>
							<div class="f6 color-fg-muted">
								({(JSON.parse(hook.events) as string[]).join(', ')}){hook.active !== 1 && ' · inactive'}
							</div>
						</div>
						<EditDelete ctx={ctx} href={`${base}/${hook.id}`} what={`the webhook to ${hook.url}`} />
					</div>
				))}
			</SettingsList>
		</SettingsFrame>
	);
}

/** The hook of the path's {id} in this repository, else the 404 page. */
function hookOf(ctx: WebContext, access: Access): HookRow {
	const id = pathId(ctx);
	const hook = id === null ? undefined : ctx.app.stores.webhooks.getInScope(hookScope(access), id);
	if (!hook) throw new NotFound();
	return hook;
}

/** The delivery of the path's {delivery_id} of the hook, else the 404 page. */
function deliveryOf(ctx: WebContext, hook: HookRow): DeliveryRow {
	const id = pathId(ctx, 'delivery_id');
	const row = id === null ? undefined : ctx.app.stores.webhooks.delivery(hook.id, id);
	if (!row) throw new NotFound();
	return row;
}

function DeliveryIcon({ row }: { row: DeliveryRow }) {
	const [icon, color, label] =
		row.state === 'delivered'
			? (['check-circle-fill', 'color-fg-success', 'Delivered'] as const)
			: row.state === 'queued'
				? (['clock', 'color-fg-muted', 'Queued'] as const)
				: (['x-circle-fill', 'color-fg-danger', 'Failed'] as const);
	return (
		<span class={`mr-2 ${color}`} title={label}>
			<Octicon name={icon} />
			<span class="gs-sr-only">{label}</span>
		</span>
	);
}

function hookForm(ctx: WebContext, hook: HookRow | null, error?: string) {
	const access = adminRepo(ctx);
	const base = `${repoPath(access)}/settings/hooks`;
	const sent = error && ctx.form ? ctx.form : null;
	const stored = hook ? (JSON.parse(hook.events) as string[]) : ['push'];
	const chosen = sent ? sent.getAll('events') : stored;
	const mode = sent
		? (sent.get('events_mode') ?? 'push')
		: stored.includes('*')
			? 'all'
			: stored.length === 1 && stored[0] === 'push'
				? 'push'
				: 'selected';
	const deliveries = hook
		? ctx.app.stores.webhooks.deliveries({ hookId: hook.id, status: null, limit: RECENT_DELIVERIES, offset: 0 }).rows
		: [];
	const notice = ctx.query.get('saved') === '1' ? 'Webhook saved.' : ctx.query.get('redelivered') === '1' ? 'Redelivery queued.' : null;
	const radio = (value: string, label: string) => (
		<div class="form-checkbox">
			<label>
				<input type="radio" name="events_mode" value={value} checked={mode === value} /> {label}
			</label>
		</div>
	);
	return (
		<SettingsFrame ctx={ctx} access={access} section="hooks" title={hook ? 'Manage webhook' : 'Add webhook'}>
			<h2 class="f2 text-normal border-bottom pb-2 mb-3">{hook ? 'Manage webhook' : 'Add webhook'}</h2>
			<Flash error={error} notice={notice} />
			<form method="post" action={hook ? `${base}/${hook.id}` : base} class="mb-5">
				<Csrf ctx={ctx} />
				<TextField
					id="hook-url"
					name="url"
					type="url"
					label="Payload URL"
					value={sent ? (sent.get('url') ?? '') : (hook?.url ?? '')}
					max={2000}
					required
				/>
				<FormGroup id="hook-content-type" label="Content type">
					<select id="hook-content-type" class="form-select" name="content_type">
						{(['json', 'form'] as const).map((type) => (
							<option
								key={type}
								value={type}
								selected={(sent ? sent.get('content_type') : (hook?.content_type ?? 'json')) === type}
							>
								{type === 'json' ? 'application/json' : 'application/x-www-form-urlencoded'}
							</option>
						))}
					</select>
				</FormGroup>
				<TextField
					id="hook-secret"
					name="secret"
					type="password"
					label="Secret"
					value=""
					max={1000}
					note={
						hook?.secret
							? `A secret is set (${MASKED_SECRET}); leave this empty to keep it, or check “Remove the secret” below.`
							: 'Signs each delivery (X-Hub-Signature-256).'
					}
				/>
				{hook?.secret && <Check name="remove_secret" label="Remove the secret" checked={false} />}
				<Check
					name="insecure_ssl"
					label="Disable SSL verification (not recommended)"
					checked={sent ? sent.get('insecure_ssl') === '1' : hook?.insecure_ssl === '1'}
				/>
				<fieldset class="form-group">
					<legend class="text-bold mb-2">Which events would you like to trigger this webhook?</legend>
					{radio('push', 'Just the push event.')}
					{radio('all', 'Send me everything.')}
					{radio('selected', 'Let me select individual events.')}
					<div class="ml-4 mt-2">
						{REPOSITORY_HOOK_EVENTS.filter((event) => event !== '*').map((event) => (
							<label key={event} class="d-inline-block mr-3 mb-1 f6">
								<input type="checkbox" name="events" value={event} checked={chosen.includes(event)} /> {event}
							</label>
						))}
					</div>
				</fieldset>
				<Check
					name="active"
					label="Active"
					checked={sent ? sent.get('active') === '1' : hook ? hook.active === 1 : true}
					note="We will deliver event details when this hook is triggered."
				/>
				<button type="submit" class="btn btn-primary">
					{hook ? 'Update webhook' : 'Add webhook'}
				</button>
			</form>
			{hook && (
				<div>
					<h3 class="f3 text-normal border-bottom pb-2 mb-3">Recent Deliveries</h3>
					{deliveries.length === 0 ? (
						<Blankslate icon="link" title="No deliveries yet" />
					) : (
						<div class="Box mb-5">
							{deliveries.map((row) => (
								<div class="Box-row d-flex flex-items-center f6" key={row.id}>
									<DeliveryIcon row={row} />
									<a class="gs-mono flex-auto" href={`${base}/${hook.id}/deliveries/${row.id}`}>
										{row.guid}
									</a>
									{row.redelivery === 1 && <span class="Label mr-2">redelivery</span>}
									<span class="mr-3">
										{row.event}
										{row.action ? `.${row.action}` : ''}
									</span>
									<span class="mr-3">{row.status_code ?? row.state}</span>
									<RelativeTime iso={row.delivered_at ?? row.created_at} now={ctx.now} />
								</div>
							))}
						</div>
					)}
					<form method="post" action={`${base}/${hook.id}/delete`}>
						<Csrf ctx={ctx} />
						<button type="submit" class="btn btn-danger">
							Delete webhook
						</button>
					</form>
				</div>
			)}
		</SettingsFrame>
	);
}

/** The events a hook form chose: push, everything ("*"), or the boxes checked. */
function formEvents(ctx: WebContext): string[] {
	const mode = field(ctx, 'events_mode', 20);
	if (mode === 'all') return ['*'];
	if (mode !== 'selected') return ['push'];
	const known = new Set<string>(REPOSITORY_HOOK_EVENTS);
	const events = uniqueEvents((ctx.form?.getAll('events') ?? []).slice(0, 200).filter((e) => known.has(e)));
	if (events.length === 0) throw invalid('Choose at least one event.');
	return events;
}

/** POST …/settings/hooks (new) and …/hooks/{id} (edit): the hooks service's checks and limits; a new active hook is pinged. */
function saveHookPage(ctx: WebContext) {
	const access = adminRepo(ctx);
	const hook = ctx.params.id === undefined ? null : hookOf(ctx, access);
	let saved: HookRow | null = null;
	const answer = attempt(
		ctx,
		() => {
			const secret = ctx.form?.get('secret') ?? '';
			const config = hookConfigValues(
				{
					url: field(ctx, 'url', 2000),
					content_type: field(ctx, 'content_type', 10) === 'form' ? 'form' : 'json',
					insecure_ssl: ctx.form?.get('insecure_ssl') === '1' ? '1' : '0',
					// Editing: an empty secret keeps the one set, unless asked to remove it.
					...(secret !== '' ? { secret: secret.slice(0, 1000) } : ctx.form?.get('remove_secret') === '1' ? { secret: null } : {}),
				},
				hook ?? undefined,
				hook !== null,
				ctx.app.config.webhooks.allowed_hosts,
			);
			saved = saveHook(
				ctx.app,
				hookScope(access),
				'repository',
				hook ?? undefined,
				{ ...config, active: ctx.form?.get('active') === '1' ? 1 : 0, events: JSON.stringify(formEvents(ctx)) },
				isoSeconds(ctx.now),
			);
			if (!hook && saved.active === 1) pingRepositoryHook(ctx.app, access.repo, access.owner, saved, ctx.user!.id);
		},
		(error) => hookForm(ctx, hook, error),
	);
	if (answer) return answer;
	throw new Redirect(`${repoPath(access)}/settings/hooks/${(saved as HookRow | null)?.id ?? hook?.id}?saved=1`, 303);
}

/** POST …/settings/hooks/{id}/delete. */
function deleteHookPage(ctx: WebContext): never {
	const access = adminRepo(ctx);
	const hook = hookOf(ctx, access);
	ctx.app.transaction(() => deleteHook(ctx.app, hook));
	throw new Redirect(`${repoPath(access)}/settings/hooks?deleted=1`, 303);
}

/** Pretty JSON of a stored payload (as stored when it does not parse). */
function pretty(json: string): string {
	try {
		return JSON.stringify(JSON.parse(json), null, 2);
	} catch {
		return json;
	}
}

/** Largest payload or response body shown (characters). */
const SHOWN = 64 * 1024;

function Headers({ json }: { json: string | null }) {
	if (!json) return <p class="color-fg-muted f6">None.</p>;
	let headers: Record<string, string> = {};
	try {
		headers = JSON.parse(json) as Record<string, string>;
	} catch {
		// shown empty
	}
	return (
		<pre class="gs-pre f6 p-2 mb-3 color-bg-subtle rounded-2">
			{Object.entries(headers)
				.map(([name, value]) => `${name}: ${value}`)
				.join('\n')}
		</pre>
	);
}

function deliveryPage(ctx: WebContext) {
	const access = adminRepo(ctx);
	const hook = hookOf(ctx, access);
	const row = deliveryOf(ctx, hook);
	const attempts = ctx.app.stores.webhooks.attempts(row.id);
	const last = attempts.at(-1);
	const payload = pretty(row.payload);
	const body = last?.response_body ?? null;
	const base = `${repoPath(access)}/settings/hooks/${hook.id}`;
	return (
		<SettingsFrame ctx={ctx} access={access} section="hooks" title={`Delivery ${row.guid}`}>
			<nav aria-label="Breadcrumb" class="mb-2 f6">
				<a href={base}>{hook.url}</a>
			</nav>
			<div class="d-flex flex-items-center border-bottom pb-2 mb-3">
				<h2 class="f3 text-normal flex-auto gs-mono">
					<DeliveryIcon row={row} />
					{row.guid}
				</h2>
				<form method="post" action={`${base}/deliveries/${row.id}/redeliver`}>
					<Csrf ctx={ctx} />
					<button type="submit" class="btn">
						<Octicon name="sync" /> Redeliver
					</button>
				</form>
			</div>
			<p class="mb-3 f6 color-fg-muted">
				{row.event}
				{row.action ? `.${row.action}` : ''} · {row.state}
				{row.status_code !== null && ` · ${row.status_code}`}
				{row.duration !== null && ` · completed in ${row.duration} seconds`} · {row.attempts} attempt{row.attempts === 1 ? '' : 's'}{' '}
				· <RelativeTime iso={row.delivered_at ?? row.created_at} now={ctx.now} />
			</p>
			<h3 class="f4 mb-2">Request</h3>
			<h4 class="f5 mb-1">Headers</h4>
			<Headers json={last?.request_headers ?? null} />
			<h4 class="f5 mb-1">Payload</h4>
			<pre class="gs-pre f6 p-2 mb-3 color-bg-subtle rounded-2">
				{payload.length > SHOWN ? `${payload.slice(0, SHOWN)}\n…` : payload}
			</pre>
			<h3 class="f4 mb-2">Response {last?.status_code ?? ''}</h3>
			{last ? (
				<div>
					<h4 class="f5 mb-1">Headers</h4>
					<Headers json={last.response_headers} />
					<h4 class="f5 mb-1">Body</h4>
					<pre class="gs-pre f6 p-2 mb-3 color-bg-subtle rounded-2">
						{body === null || body === '' ? '(empty)' : body.length > SHOWN ? `${body.slice(0, SHOWN)}\n…` : body}
					</pre>
					{last.status && <p class="f6 color-fg-muted">{last.status}</p>}
				</div>
			) : (
				<p class="color-fg-muted">Not attempted yet.</p>
			)}
			{attempts.length > 1 && (
				<div>
					<h3 class="f4 mb-2">Attempts</h3>
					<ul class="f6 ml-3">
						{attempts.map((a) => (
							<li key={a.id}>
								<RelativeTime iso={a.attempted_at} now={ctx.now} /> · {a.status_code ?? '—'} · {a.status} · {a.duration} s
							</li>
						))}
					</ul>
				</div>
			)}
		</SettingsFrame>
	);
}

/** POST …/settings/hooks/{id}/deliveries/{delivery_id}/redeliver: the same payload and GUID queued again. */
function redeliver(ctx: WebContext): never {
	const access = adminRepo(ctx);
	const hook = hookOf(ctx, access);
	const row = deliveryOf(ctx, hook);
	const newId = ctx.app.transaction(() => ctx.app.webhooks.redeliver(row));
	throw new Redirect(`${repoPath(access)}/settings/hooks/${hook.id}/deliveries/${newId}`, 303);
}

const R = '/{owner}/{repo}/settings';

export const repoSettingsPages: PageRoute[] = [
	{ method: 'GET', path: R, weak: false, handler: (ctx) => general(ctx) },
	{ method: 'POST', path: R, handler: saveGeneral },
	{ method: 'POST', path: `${R}/visibility`, handler: saveVisibility },
	{ method: 'POST', path: `${R}/archive`, handler: saveArchive },
	{ method: 'GET', path: `${R}/access`, weak: false, handler: (ctx) => accessPage(ctx) },
	{ method: 'POST', path: `${R}/access/collaborators`, handler: addPerson },
	{ method: 'POST', path: `${R}/access/collaborators/{login}`, handler: changePerson },
	{ method: 'POST', path: `${R}/access/collaborators/{login}/remove`, handler: removePerson },
	{ method: 'POST', path: `${R}/access/invitations/{id}/remove`, handler: cancelInvitation },
	{ method: 'POST', path: `${R}/access/teams`, handler: saveTeam },
	{ method: 'POST', path: `${R}/access/teams/{slug}`, handler: saveTeam },
	{ method: 'POST', path: `${R}/access/teams/{slug}/remove`, handler: removeTeam },
	{ method: 'GET', path: `${R}/branches`, weak: false, handler: branchRules },
	{ method: 'GET', path: `${R}/branch_protection_rules/new`, weak: false, handler: (ctx) => ruleForm(ctx, null) },
	{ method: 'POST', path: `${R}/branch_protection_rules`, handler: saveRule },
	{ method: 'GET', path: `${R}/branch_protection_rules/{id}`, weak: false, handler: (ctx) => ruleForm(ctx, ruleOf(ctx, adminRepo(ctx))) },
	{ method: 'POST', path: `${R}/branch_protection_rules/{id}`, handler: saveRule },
	{ method: 'POST', path: `${R}/branch_protection_rules/{id}/delete`, handler: deleteRule },
	{ method: 'GET', path: `${R}/hooks`, weak: false, handler: hooksPage },
	{ method: 'GET', path: `${R}/hooks/new`, weak: false, handler: (ctx) => hookForm(ctx, null) },
	{ method: 'POST', path: `${R}/hooks`, handler: saveHookPage },
	{ method: 'GET', path: `${R}/hooks/{id}`, weak: false, handler: (ctx) => hookForm(ctx, hookOf(ctx, adminRepo(ctx))) },
	{ method: 'POST', path: `${R}/hooks/{id}`, handler: saveHookPage },
	{ method: 'POST', path: `${R}/hooks/{id}/delete`, handler: deleteHookPage },
	{ method: 'GET', path: `${R}/hooks/{id}/deliveries/{delivery_id}`, weak: false, handler: deliveryPage },
	{ method: 'POST', path: `${R}/hooks/{id}/deliveries/{delivery_id}/redeliver`, handler: redeliver },
];
