/**
 * The script of `gitstead admin seed-demo`: a fictional enterprise, Northwind Traders, with its
 * people, organizations, teams, repositories (files, history, issues, pull requests, releases),
 * deployments, workflow runs, security advisories and the rest. Data only: src/cli/demo/seed.ts
 * plays it through the API. Everything here is fixed; times are days (or minutes) before the moment
 * of seeding, so a demo always looks recent. Logins are referenced by name throughout; the driver
 * refuses a script whose references do not resolve.
 */

/** A person. `bio`, `company`, `location` and `blog` fill the public profile. */
export interface DemoUser {
	login: string;
	name: string;
	email: string;
	bio: string;
	company: string;
	location: string;
	blog?: string;
	siteAdmin?: boolean;
}

export interface DemoTeam {
	name: string;
	description: string;
	/** The parent team's name (nested teams). */
	parent?: string;
	privacy: 'closed' | 'secret';
	maintainers: string[];
	members: string[];
	/** Repository name (of the same organization) → permission. */
	repos: Record<string, 'pull' | 'triage' | 'push' | 'maintain' | 'admin'>;
}

export interface DemoOrg {
	login: string;
	name: string;
	description: string;
	location: string;
	blog: string;
	owners: string[];
	members: string[];
	teams: DemoTeam[];
	/** Custom property definitions of the organization (PUT /orgs/{org}/properties/schema/{name}). */
	properties: Array<{
		name: string;
		value_type: 'string' | 'single_select' | 'multi_select' | 'true_false';
		required?: boolean;
		default_value?: string;
		description: string;
		allowed_values?: string[];
	}>;
	/** Budgets (POST /organizations/{org}/settings/billing/budgets). */
	budgets: Array<{ sku: string; amount: number; prevent: boolean; scope: 'organization' | 'repository'; entity?: string }>;
}

/** A commit: its author (a login), when (days ago), its message and the files it writes (null: deletes). */
export interface DemoCommit {
	author: string;
	daysAgo: number;
	message: string;
	files: Record<string, string | null>;
}

export interface DemoComment {
	author: string;
	body: string;
	reactions?: Record<string, string[]>;
}

export interface DemoIssue {
	author: string;
	title: string;
	body: string;
	labels?: string[];
	assignees?: string[];
	milestone?: string;
	comments?: DemoComment[];
	/** content (+1, heart, rocket, …) → logins. */
	reactions?: Record<string, string[]>;
	/** Closed by this login, as completed or not planned. */
	closed?: { by: string; reason: 'completed' | 'not_planned' };
}

export interface DemoPull {
	author: string;
	title: string;
	body: string;
	/** The head branch, made from the default branch with these commits. */
	branch: string;
	commits: DemoCommit[];
	labels?: string[];
	reviewers?: string[];
	/** Reviews, with comments on lines of the head's files (line numbers of the new file). */
	reviews?: Array<{
		author: string;
		event: 'APPROVE' | 'REQUEST_CHANGES' | 'COMMENT';
		body: string;
		comments?: Array<{ path: string; line: number; body: string }>;
	}>;
	comments?: DemoComment[];
	/** Merged by this login. */
	merge?: { by: string; method: 'merge' | 'squash' | 'rebase' };
}

export interface DemoRun {
	workflow: string;
	event: string;
	branch: string;
	actor: string;
	status: 'completed' | 'in_progress' | 'queued' | 'waiting' | 'requested' | 'pending';
	conclusion?: 'success' | 'failure' | 'cancelled' | 'skipped' | 'timed_out' | 'neutral' | 'action_required';
	/** Minutes ago. */
	minutesAgo: number;
	title: string;
	/** Per job, when they differ from the run's state (name → status/conclusion). */
	jobs?: Array<{ name: string; status: DemoRun['status']; conclusion?: DemoRun['conclusion'] }>;
}

export interface DemoRepo {
	owner: string;
	name: string;
	description: string;
	visibility: 'public' | 'private' | 'internal';
	homepage?: string;
	topics: string[];
	/** The history of the default branch (main), oldest first. */
	commits: DemoCommit[];
	/** Extra branches from main's head (no commits of their own). */
	branches?: string[];
	/** Lightweight tags on main's commits: tag → index into `commits`. */
	tags?: Record<string, number>;
	releases?: Array<{ tag: string; name: string; body: string; author: string; prerelease?: boolean; draft?: boolean }>;
	labels?: Array<{ name: string; color: string; description: string }>;
	milestones?: Array<{ title: string; description: string; dueInDays: number; closed?: boolean }>;
	issues?: DemoIssue[];
	pulls?: DemoPull[];
	/** Protect main after the history is written (pull requests with one approving review). */
	protectMain?: boolean;
	/** Outside collaborators or direct grants: login → permission (invited, then accepted). */
	collaborators?: Record<string, 'pull' | 'triage' | 'push' | 'maintain' | 'admin'>;
	stars: string[];
	watchers: string[];
	/** Environments with their branch policies, and deployments (newest last) with status histories. */
	environments?: Array<{ name: string; waitTimer?: number; branches?: string[] }>;
	deployments?: Array<{
		environment: string;
		creator: string;
		description: string;
		statuses: Array<'queued' | 'in_progress' | 'success' | 'failure' | 'error' | 'inactive'>;
	}>;
	workflows?: Array<{ name: string; path: string; jobs: Array<{ name: string; needs?: string[] }> }>;
	runs?: DemoRun[];
	/** Dependency snapshot: the manifest and its resolved packages (package URLs). */
	snapshot?: {
		manifest: string;
		detector: string;
		packages: Record<string, { purl: string; relationship: 'direct' | 'indirect'; scope: 'runtime' | 'development' }>;
	};
	/** Security: delegated alert dismissal on (a dismissal request is filed for the first alert). */
	delegatedDismissal?: boolean;
}

export interface DemoGist {
	owner: string;
	description: string;
	public: boolean;
	files: Record<string, string>;
	comments?: DemoComment[];
	stars?: string[];
}

// ------------------------------------------------------------------------ people

export const ENTERPRISE = { slug: 'northwind', name: 'Northwind Traders' };

/** The personas whose tokens are printed: role → login. */
export const PERSONAS: Array<{ login: string; role: string }> = [
	{ login: 'rosa-admin', role: 'site administrator and enterprise owner' },
	{ login: 'mchen', role: 'owner of northwind-eng' },
	{ login: 'jmartin', role: 'developer (member of northwind-eng, team backend)' },
	{ login: 'cwright', role: 'outside collaborator (storefront, push)' },
];

const user = (login: string, name: string, bio: string, location: string, extra: Partial<DemoUser> = {}): DemoUser => ({
	login,
	name,
	email: `${login.replace(/-admin$/, '')}@northwind.example`,
	bio,
	company: '@northwind',
	location,
	...extra,
});

export const USERS: DemoUser[] = [
	user(
		'rosa-admin',
		'Rosa Delgado',
		'Runs the Gitstead appliance at Northwind. Backups, upgrades, and the occasional pager.',
		'Lisbon, Portugal',
		{ siteAdmin: true },
	),
	user('mchen', 'Mei Chen', 'VP Engineering. Shipping boring software on purpose.', 'Seattle, WA', { blog: 'https://meichen.example' }),
	user('cokafor', 'Chidi Okafor', 'Data platform lead. Pipelines, lineage, and too many Parquet files.', 'Lagos, Nigeria'),
	user('lpetrova', 'Lena Petrova', 'Head of Labs. Prototypes that sometimes survive.', 'Berlin, Germany'),
	user('jmartin', 'James Martin', 'Backend developer on payments and checkout. Python, Postgres, coffee.', 'Austin, TX'),
	user('asingh', 'Aarav Singh', 'Frontend engineer. Accessibility nerd; keyboard-only Fridays.', 'Bengaluru, India'),
	user('nkowalski', 'Nina Kowalski', 'Site reliability. If it is not in Terraform it does not exist.', 'Kraków, Poland'),
	user('tnguyen', 'Thanh Nguyen', 'Security engineer. Reads advisories so you do not have to.', 'Ho Chi Minh City, Vietnam'),
	user('sgarcia', 'Sofía García', 'Mobile engineer (React Native). Offline-first or bust.', 'Madrid, Spain'),
	user('bwilliams', 'Ben Williams', 'QA and test automation. Flaky tests are bugs.', 'Manchester, UK'),
	user('hsato', 'Haruto Sato', 'Data engineer. Airflow, dbt, and patience.', 'Osaka, Japan'),
	user('efischer', 'Emma Fischer', 'Machine-learning engineer working on demand forecasting.', 'Zürich, Switzerland'),
	user('dobrien', "Declan O'Brien", 'Analytics engineer. Dashboards that people actually open.', 'Dublin, Ireland'),
	user('kmensah', 'Kwame Mensah', 'Platform engineer. CI runners, caches and build minutes.', 'Accra, Ghana'),
	user('ilarsen', 'Ingrid Larsen', 'Product designer; maintains the design system tokens.', 'Oslo, Norway'),
	user('rcosta', 'Rafael Costa', 'Backend developer. Idempotency keys are a love language.', 'São Paulo, Brazil'),
	user('yhassan', 'Yasmin Hassan', 'Data scientist. Experiments, priors, and honest error bars.', 'Cairo, Egypt'),
	user('mrossi', 'Marco Rossi', 'Research engineer in Labs: edge computing and WebAssembly.', 'Turin, Italy'),
	user('cwright', 'Chloe Wright', 'Independent frontend contractor working with Northwind on the storefront.', 'Bristol, UK', {
		company: 'Wright Web Studio',
		email: 'chloe@wrightweb.example',
	}),
	user('vkumar', 'Vikram Kumar', 'External security auditor (read-only access to payments).', 'Pune, India', {
		company: 'Kumar Assurance',
		email: 'vikram@kumar-assurance.example',
	}),
];

// ------------------------------------------------------------------------ organizations

export const ORGS: DemoOrg[] = [
	{
		login: 'northwind-eng',
		name: 'Northwind Engineering',
		description: 'Product engineering: storefront, payments, mobile and the design system.',
		location: 'Seattle, WA',
		blog: 'https://engineering.northwind.example',
		owners: ['mchen', 'rosa-admin'],
		members: ['jmartin', 'asingh', 'nkowalski', 'tnguyen', 'sgarcia', 'bwilliams', 'kmensah', 'ilarsen', 'rcosta'],
		teams: [
			{
				name: 'Engineering',
				description: 'Everyone who ships product code',
				privacy: 'closed',
				maintainers: ['mchen'],
				members: ['tnguyen', 'bwilliams'],
				repos: { storefront: 'pull', 'payments-api': 'pull' },
			},
			{
				name: 'Backend',
				description: 'Payments, checkout and the public API',
				parent: 'Engineering',
				privacy: 'closed',
				maintainers: ['jmartin'],
				members: ['rcosta'],
				repos: { 'payments-api': 'push', storefront: 'push' },
			},
			{
				name: 'Frontend',
				description: 'Storefront and the design system',
				parent: 'Engineering',
				privacy: 'closed',
				maintainers: ['asingh'],
				members: ['ilarsen'],
				repos: { storefront: 'push', 'design-system': 'maintain' },
			},
			{
				name: 'Mobile',
				description: 'iOS and Android apps',
				parent: 'Frontend',
				privacy: 'closed',
				maintainers: ['sgarcia'],
				members: [],
				repos: { 'mobile-app': 'push', 'design-system': 'push' },
			},
			{
				name: 'SRE',
				description: 'Infrastructure, on-call and CI runners',
				privacy: 'closed',
				maintainers: ['nkowalski'],
				members: ['kmensah'],
				repos: { infra: 'admin', storefront: 'maintain', 'payments-api': 'maintain' },
			},
			{
				name: 'Security',
				description: 'Application security reviews and incident response',
				privacy: 'secret',
				maintainers: ['tnguyen'],
				members: [],
				repos: { 'payments-api': 'triage', storefront: 'triage', infra: 'pull' },
			},
		],
		properties: [
			{
				name: 'cost-center',
				value_type: 'single_select',
				required: true,
				default_value: 'CC-100',
				description: 'Finance cost center that pays for the repository',
				allowed_values: ['CC-100', 'CC-200', 'CC-300'],
			},
			{
				name: 'data-classification',
				value_type: 'single_select',
				required: true,
				default_value: 'internal',
				description: 'Highest class of data the code handles',
				allowed_values: ['public', 'internal', 'confidential', 'pci'],
			},
			{ name: 'service-owner', value_type: 'string', description: 'Team answering pages for this service' },
		],
		budgets: [
			{ sku: 'actions', amount: 500, prevent: true, scope: 'organization' },
			{ sku: 'actions_linux', amount: 120, prevent: false, scope: 'repository', entity: 'storefront' },
		],
	},
	{
		login: 'northwind-data',
		name: 'Northwind Data Platform',
		description: 'Pipelines, warehouse models and dashboards.',
		location: 'Lagos, Nigeria',
		blog: 'https://data.northwind.example',
		owners: ['cokafor'],
		members: ['hsato', 'efischer', 'dobrien', 'yhassan', 'jmartin', 'nkowalski'],
		teams: [
			{
				name: 'Data Engineering',
				description: 'Ingestion and the warehouse',
				privacy: 'closed',
				maintainers: ['hsato'],
				members: ['nkowalski'],
				repos: { pipeline: 'push', 'warehouse-models': 'push' },
			},
			{
				name: 'Analytics',
				description: 'Dashboards and metrics definitions',
				parent: 'Data Engineering',
				privacy: 'closed',
				maintainers: ['dobrien'],
				members: ['yhassan'],
				repos: { dashboards: 'push', 'warehouse-models': 'push' },
			},
			{
				name: 'ML',
				description: 'Forecasting and recommendations',
				privacy: 'closed',
				maintainers: ['efischer'],
				members: ['yhassan'],
				repos: { pipeline: 'push' },
			},
		],
		properties: [
			{ name: 'pii', value_type: 'true_false', required: true, default_value: 'false', description: 'Processes personal data' },
		],
		budgets: [{ sku: 'actions', amount: 200, prevent: false, scope: 'organization' }],
	},
	{
		login: 'northwind-labs',
		name: 'Northwind Labs',
		description: 'Experiments and research prototypes. Nothing here is supported.',
		location: 'Berlin, Germany',
		blog: 'https://labs.northwind.example',
		owners: ['lpetrova'],
		members: ['mrossi', 'efischer', 'asingh'],
		teams: [
			{
				name: 'Researchers',
				description: 'Labs research engineers',
				privacy: 'closed',
				maintainers: ['mrossi'],
				members: ['efischer'],
				repos: { 'edge-cache': 'push', 'forecast-notebooks': 'push' },
			},
		],
		properties: [
			{
				name: 'lifecycle',
				value_type: 'single_select',
				default_value: 'experiment',
				description: 'How far the prototype got',
				allowed_values: ['experiment', 'pilot', 'archived'],
			},
		],
		budgets: [],
	},
];

/** Enterprise custom properties for organizations and enterprise budgets. */
export const ENTERPRISE_PROPERTIES = [
	{
		name: 'region',
		value_type: 'single_select' as const,
		required: false,
		description: 'Home region of the organization',
		allowed_values: ['us-west', 'eu-central', 'africa-west'],
	},
];
export const ENTERPRISE_BUDGETS = [{ sku: 'actions', amount: 2000, prevent: true }];

/** Runner groups (enterprise) and self-hosted runners registered in them. */
export const RUNNER_GROUPS = [{ name: 'linux-builders', orgs: ['northwind-eng', 'northwind-data'] }];
export const RUNNERS: Array<{
	name: string;
	os: 'linux' | 'macos' | 'windows';
	labels: string[];
	group?: string;
	status: 'online' | 'offline';
}> = [
	{ name: 'nw-build-01', os: 'linux', labels: ['gpu', 'large'], group: 'linux-builders', status: 'online' },
	{ name: 'nw-build-02', os: 'linux', labels: ['large'], group: 'linux-builders', status: 'online' },
	{ name: 'nw-build-03', os: 'linux', labels: [], group: 'linux-builders', status: 'offline' },
	{ name: 'nw-mac-01', os: 'macos', labels: ['xcode-16'], status: 'online' },
];

/** The global webhook (inactive: its host does not resolve, so deliveries would only fail). */
export const GLOBAL_HOOK = { url: 'https://hooks.northwind.example/gitstead', events: ['user', 'organization'], active: false };

// ------------------------------------------------------------------------ repository files

const STOREFRONT_PACKAGE = `${JSON.stringify(
	{
		name: '@northwind/storefront',
		version: '2.3.0',
		private: true,
		scripts: { dev: 'vite', build: 'vite build', test: 'vitest run', lint: 'eslint src' },
		dependencies: { axios: '0.21.1', lodash: '4.17.15', minimist: '1.2.5', react: '18.2.0', 'react-dom': '18.2.0' },
		devDependencies: { vite: '5.0.0', vitest: '1.0.4', eslint: '8.55.0' },
	},
	null,
	2,
)}\n`;

const STOREFRONT_README = `# Storefront

The customer-facing web shop of Northwind Traders: catalogue, cart and checkout.

## Getting started

\`\`\`sh
npm ci
npm run dev      # http://localhost:5173
npm test
\`\`\`

The checkout talks to [payments-api](../payments-api) through \`src/api/client.js\`.

## Deployments

- **staging** deploys every push to \`main\`.
- **production** deploys tagged releases after a manual approval.
`;

const CART_JS = `import { sumBy } from 'lodash';

/** Cart totals in cents. */
export function cartTotal(items) {
	return sumBy(items, (item) => item.priceCents * item.quantity);
}

export function addItem(cart, product, quantity = 1) {
	const existing = cart.find((item) => item.sku === product.sku);
	if (existing) existing.quantity += quantity;
	else cart.push({ sku: product.sku, priceCents: product.priceCents, quantity });
	return cart;
}
`;

const CART_JS_V2 = CART_JS.replace(
	'export function addItem',
	`export function removeItem(cart, sku) {
	return cart.filter((item) => item.sku !== sku);
}

export function addItem`,
);

const CLIENT_JS = `import axios from 'axios';

const client = axios.create({ baseURL: import.meta.env.VITE_PAYMENTS_URL, timeout: 5000 });

/** Starts a checkout session; returns { id, redirectUrl }. */
export async function createCheckout(cart, idempotencyKey) {
	const { data } = await client.post('/v1/checkouts', { items: cart }, { headers: { 'Idempotency-Key': idempotencyKey } });
	return data;
}
`;

const PAYMENTS_README = `# payments-api

Payment orchestration for Northwind: checkouts, captures and refunds over the PSP.

\`\`\`sh
python -m venv .venv && . .venv/bin/activate
pip install -r requirements.txt
pytest
\`\`\`

Every write endpoint requires an \`Idempotency-Key\` header.
`;

const REQUIREMENTS = `Django==3.2.4
djangorestframework==3.12.4
requests==2.25.1
PyYAML==5.3.1
urllib3==1.26.4
psycopg2-binary==2.9.1
`;

const CHECKOUT_PY = `"""Checkout sessions."""
import uuid

from .psp import client


def create_checkout(items, idempotency_key):
    total = sum(item["price_cents"] * item["quantity"] for item in items)
    if total <= 0:
        raise ValueError("empty checkout")
    return client.create_session(amount=total, reference=str(uuid.uuid4()), key=idempotency_key)
`;

const REFUNDS_PY = `"""Refunds: partial or full, at most the captured amount."""
from .psp import client


def refund(capture, amount_cents=None):
    amount = capture.amount_cents if amount_cents is None else amount_cents
    if amount > capture.amount_cents - capture.refunded_cents:
        raise ValueError("refund exceeds the captured amount")
    return client.refund(capture.id, amount)
`;

const CI_YML = `name: CI
on:
  push:
    branches: [main]
  pull_request:
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: npm ci && npm run lint
  test:
    runs-on: ubuntu-latest
    needs: lint
    steps:
      - uses: actions/checkout@v4
      - run: npm ci && npm test
  build:
    runs-on: [self-hosted, linux, large]
    needs: test
    steps:
      - uses: actions/checkout@v4
      - run: npm ci && npm run build
`;

const DEPLOY_YML = `name: Deploy
on:
  push:
    branches: [main]
  release:
    types: [published]
jobs:
  deploy:
    runs-on: [self-hosted, linux]
    environment: \${{ github.event_name == 'release' && 'production' || 'staging' }}
    steps:
      - uses: actions/checkout@v4
      - run: ./scripts/deploy.sh
`;

const PY_CI_YML = `name: Tests
on: [push, pull_request]
jobs:
  pytest:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with: { python-version: '3.12' }
      - run: pip install -r requirements.txt && pytest -q
`;

const simpleReadme = (title: string, text: string) => `# ${title}\n\n${text}\n`;

// ------------------------------------------------------------------------ repositories

export const REPOS: DemoRepo[] = [
	{
		owner: 'northwind-eng',
		name: 'storefront',
		description: 'Customer-facing web shop: catalogue, cart and checkout',
		visibility: 'public',
		homepage: 'https://shop.northwind.example',
		topics: ['react', 'vite', 'ecommerce'],
		commits: [
			{
				author: 'asingh',
				daysAgo: 34,
				message: 'Scaffold the storefront with Vite and React',
				files: {
					'README.md': STOREFRONT_README,
					'package.json': STOREFRONT_PACKAGE,
					'src/main.jsx':
						"import React from 'react';\nimport { createRoot } from 'react-dom/client';\nimport App from './App';\n\ncreateRoot(document.getElementById('root')).render(<App />);\n",
					'src/App.jsx': 'export default function App() {\n\treturn <h1>Northwind</h1>;\n}\n',
					'.gitignore': 'node_modules/\ndist/\n.env\n',
				},
			},
			{ author: 'asingh', daysAgo: 30, message: 'Add the cart module', files: { 'src/cart.js': CART_JS } },
			{
				author: 'jmartin',
				daysAgo: 24,
				message: 'Checkout client for payments-api\n\nUses an idempotency key per checkout attempt.',
				files: { 'src/api/client.js': CLIENT_JS },
			},
			{
				author: 'kmensah',
				daysAgo: 21,
				message: 'CI: lint, test and build workflows',
				files: { '.github/workflows/ci.yml': CI_YML, '.github/workflows/deploy.yml': DEPLOY_YML },
			},
			{
				author: 'ilarsen',
				daysAgo: 15,
				message: 'Use design-system tokens for colours',
				files: {
					'src/theme.css': ':root {\n\t--nw-color-primary: #0b5fff;\n\t--nw-color-surface: #ffffff;\n\t--nw-radius: 6px;\n}\n',
				},
			},
			{ author: 'rcosta', daysAgo: 9, message: 'Cart: remove items', files: { 'src/cart.js': CART_JS_V2 } },
		],
		branches: ['release/2.3'],
		tags: { 'v2.2.0': 3 },
		releases: [
			{
				tag: 'v2.3.0',
				name: 'Storefront 2.3.0',
				author: 'asingh',
				body: '## What changed\n\n- Cart items can be removed (#6)\n- Colours come from the design system tokens\n- CI builds on the self-hosted `large` runners\n\n**Full changelog**: v2.2.0...v2.3.0',
			},
			{
				tag: 'v2.4.0-rc.1',
				name: '2.4.0 release candidate 1',
				author: 'jmartin',
				prerelease: true,
				body: 'First candidate with the new checkout flow. Staging only.',
			},
		],
		labels: [
			{ name: 'checkout', color: 'f9d0c4', description: 'Cart and checkout flow' },
			{ name: 'accessibility', color: '0e8a16', description: 'Keyboard, screen readers, contrast' },
			{ name: 'security', color: 'b60205', description: 'Security fixes and hardening' },
			{ name: 'p1', color: 'd93f0b', description: 'Fix this sprint' },
			{ name: 'dependencies', color: '0366d6', description: 'Dependency upgrades' },
		],
		milestones: [
			{ title: 'v2.4', description: 'New checkout flow and accessibility pass', dueInDays: 14 },
			{ title: 'v2.3', description: 'Cart improvements', dueInDays: -10, closed: true },
		],
		issues: [
			{
				author: 'bwilliams',
				title: 'Checkout button does nothing on Safari 17',
				labels: ['bug', 'checkout', 'p1'],
				assignees: ['jmartin'],
				milestone: 'v2.4',
				body: `On Safari 17.1 (macOS 14) clicking **Place order** does nothing. No request reaches payments-api.

Steps to reproduce:

1. Add any product to the cart
2. Go to checkout and fill in the address
3. Click **Place order**

Console:

\`\`\`
TypeError: crypto.randomUUID is not a function
    at createCheckout (client.js:6:42)
\`\`\`

@jmartin can you take a look? It blocks the 2.4 release.`,
				comments: [
					{
						author: 'jmartin',
						body: "Reproduced. `crypto.randomUUID` needs a secure context and our staging host serves plain HTTP behind the proxy. I'll generate the idempotency key server-side instead.",
						reactions: { '+1': ['bwilliams', 'asingh'] },
					},
					{
						author: 'asingh',
						body: 'Could we also disable the button while the request is in flight? Double clicks create two checkouts today.',
					},
					{ author: 'jmartin', body: 'Good point — both in #7.' },
				],
				reactions: { eyes: ['mchen'], '+1': ['sgarcia'] },
			},
			{
				author: 'asingh',
				title: 'Accessibility pass for the cart page',
				labels: ['enhancement', 'accessibility'],
				assignees: ['asingh', 'ilarsen'],
				milestone: 'v2.4',
				body: `Audit with VoiceOver and axe found these; let's fix them before 2.4:

- [x] Quantity buttons have no accessible name
- [x] Focus is lost after removing an item
- [ ] Price changes are not announced (needs an \`aria-live\` region)
- [ ] Contrast of the *Remove* link is 3.9:1 (needs 4.5:1)

cc @ilarsen for the colour tokens.`,
				comments: [
					{
						author: 'ilarsen',
						body: "I'll darken `--nw-color-link-muted` in design-system; that fixes the contrast everywhere.",
						reactions: { heart: ['asingh'] },
					},
				],
			},
			{
				author: 'tnguyen',
				title: 'Upgrade lodash and axios (known vulnerabilities)',
				labels: ['security', 'dependencies'],
				assignees: ['rcosta'],
				milestone: 'v2.4',
				body: `Dependabot reports alerts for \`lodash@4.17.15\` (command injection in \`template\`) and \`axios@0.21.1\` (SSRF / CSRF token leak).

| Package | Current | Fixed in |
| ------- | ------- | -------- |
| lodash  | 4.17.15 | 4.17.21  |
| axios   | 0.21.1  | 1.6.0    |

axios 1.x changes the default export in CommonJS; we only use ESM so it should be a drop-in.`,
				comments: [
					{
						author: 'rcosta',
						body: 'On it. lodash is easy; for axios I will run the checkout tests against staging first.',
						reactions: { rocket: ['tnguyen'] },
					},
				],
				reactions: { '+1': ['mchen', 'jmartin', 'nkowalski'] },
			},
			{
				author: 'cwright',
				title: 'Product images are blurry on retina screens',
				labels: ['bug'],
				body: 'The catalogue grid requests 1x images only. We should use `srcset` with the 2x variants the CDN already has.\n\n![screenshot](https://cdn.northwind.example/bugs/blurry.png)',
				comments: [
					{
						author: 'asingh',
						body: 'Thanks @cwright! Would you like to take it? You know the image pipeline better than we do.',
					},
					{ author: 'cwright', body: 'Sure, PR coming this week.', reactions: { hooray: ['asingh'], heart: ['ilarsen'] } },
				],
			},
			{
				author: 'mchen',
				title: 'Add a dark theme',
				labels: ['enhancement', 'question'],
				body: 'Customers keep asking. Is it worth it before the design system supports themes?',
				comments: [{ author: 'ilarsen', body: 'Not before the tokens are themable — that is design-system#1. Closing for now.' }],
				closed: { by: 'mchen', reason: 'not_planned' },
			},
		],
		pulls: [
			{
				author: 'rcosta',
				title: 'Cart: remove items and keep focus',
				branch: 'feature/remove-items',
				body: 'Adds a **Remove** button per line and moves focus to the next line (or the cart heading) after removal.\n\nPart of #2.',
				commits: [
					{
						author: 'rcosta',
						daysAgo: 8,
						message: 'Keep focus after removing a cart line',
						files: {
							'src/focus.js':
								"/** Moves focus to the next cart line, or the cart heading. */\nexport function focusAfterRemoval(list, index) {\n\tconst next = list.children[index] ?? document.getElementById('cart-heading');\n\tnext?.focus();\n}\n",
						},
					},
				],
				labels: ['accessibility'],
				reviewers: ['asingh'],
				reviews: [{ author: 'asingh', event: 'APPROVE', body: 'Tested with VoiceOver: focus lands where expected. 🚀' }],
				merge: { by: 'asingh', method: 'squash' },
			},
			{
				author: 'jmartin',
				title: 'Generate checkout idempotency keys server-side',
				branch: 'fix/safari-checkout',
				body: "Fixes #1.\n\n- The browser no longer calls `crypto.randomUUID` (unavailable outside secure contexts)\n- The **Place order** button is disabled while the request is in flight\n\n```diff\n- headers: { 'Idempotency-Key': crypto.randomUUID() }\n+ headers: { 'Idempotency-Key': session.idempotencyKey }\n```",
				commits: [
					{
						author: 'jmartin',
						daysAgo: 2,
						message: 'Take the idempotency key from the session',
						files: {
							'src/api/client.js': CLIENT_JS.replace(
								'createCheckout(cart, idempotencyKey)',
								'createCheckout(cart, session)',
							).replace("'Idempotency-Key': idempotencyKey", "'Idempotency-Key': session.idempotencyKey"),
						},
					},
					{
						author: 'jmartin',
						daysAgo: 1,
						message: 'Disable Place order while submitting',
						files: {
							'src/CheckoutButton.jsx':
								'export default function CheckoutButton({ pending, onClick }) {\n\treturn (\n\t\t<button disabled={pending} aria-busy={pending} onClick={onClick}>\n\t\t\tPlace order\n\t\t</button>\n\t);\n}\n',
						},
					},
				],
				labels: ['bug', 'checkout'],
				reviewers: ['rcosta', 'asingh'],
				reviews: [
					{
						author: 'rcosta',
						event: 'REQUEST_CHANGES',
						body: 'The session can expire between page load and click — please refresh the key when the session is older than 15 minutes.',
						comments: [
							{
								path: 'src/api/client.js',
								line: 7,
								body: 'If `session` is stale this sends an expired key; payments-api answers 409 and the shopper sees a generic error.',
							},
							{ path: 'src/CheckoutButton.jsx', line: 3, body: 'Nice — `aria-busy` also helps screen readers here. 👍' },
						],
					},
				],
				comments: [{ author: 'bwilliams', body: 'Verified on Safari 17.1 with the preview build: the order goes through.' }],
			},
		],
		protectMain: true,
		collaborators: { cwright: 'push' },
		stars: ['mchen', 'asingh', 'jmartin', 'sgarcia', 'cwright', 'ilarsen', 'bwilliams', 'dobrien'],
		watchers: ['asingh', 'bwilliams', 'tnguyen'],
		environments: [
			{ name: 'staging', branches: ['main', 'release/*'] },
			{ name: 'production', waitTimer: 5, branches: ['main'] },
		],
		deployments: [
			{
				environment: 'staging',
				creator: 'kmensah',
				description: 'Deploy main to staging',
				statuses: ['queued', 'in_progress', 'success'],
			},
			{
				environment: 'production',
				creator: 'nkowalski',
				description: 'Release v2.3.0',
				statuses: ['queued', 'in_progress', 'success'],
			},
			{ environment: 'staging', creator: 'kmensah', description: 'Deploy main to staging', statuses: ['in_progress', 'failure'] },
			{
				environment: 'staging',
				creator: 'kmensah',
				description: 'Deploy main to staging (retry)',
				statuses: ['queued', 'in_progress'],
			},
		],
		workflows: [
			{
				name: 'CI',
				path: '.github/workflows/ci.yml',
				jobs: [{ name: 'lint' }, { name: 'test', needs: ['lint'] }, { name: 'build', needs: ['test'] }],
			},
			{ name: 'Deploy', path: '.github/workflows/deploy.yml', jobs: [{ name: 'deploy' }] },
		],
		runs: [
			{
				workflow: 'CI',
				event: 'push',
				branch: 'main',
				actor: 'kmensah',
				status: 'completed',
				conclusion: 'success',
				minutesAgo: 30240,
				title: 'CI: lint, test and build workflows',
			},
			{
				workflow: 'CI',
				event: 'push',
				branch: 'main',
				actor: 'ilarsen',
				status: 'completed',
				conclusion: 'failure',
				minutesAgo: 21600,
				title: 'Use design-system tokens for colours',
				jobs: [
					{ name: 'lint', status: 'completed', conclusion: 'success' },
					{ name: 'test', status: 'completed', conclusion: 'failure' },
					{ name: 'build', status: 'completed', conclusion: 'skipped' },
				],
			},
			{
				workflow: 'CI',
				event: 'push',
				branch: 'main',
				actor: 'rcosta',
				status: 'completed',
				conclusion: 'success',
				minutesAgo: 12960,
				title: 'Cart: remove items',
			},
			{
				workflow: 'Deploy',
				event: 'release',
				branch: 'main',
				actor: 'nkowalski',
				status: 'completed',
				conclusion: 'success',
				minutesAgo: 8000,
				title: 'Storefront 2.3.0',
			},
			{
				workflow: 'CI',
				event: 'pull_request',
				branch: 'fix/safari-checkout',
				actor: 'jmartin',
				status: 'completed',
				conclusion: 'cancelled',
				minutesAgo: 2900,
				title: 'Take the idempotency key from the session',
				jobs: [
					{ name: 'lint', status: 'completed', conclusion: 'success' },
					{ name: 'test', status: 'completed', conclusion: 'cancelled' },
					{ name: 'build', status: 'completed', conclusion: 'skipped' },
				],
			},
			{
				workflow: 'Deploy',
				event: 'push',
				branch: 'main',
				actor: 'kmensah',
				status: 'completed',
				conclusion: 'timed_out',
				minutesAgo: 600,
				title: 'Deploy main to staging',
			},
			{
				workflow: 'CI',
				event: 'pull_request',
				branch: 'fix/safari-checkout',
				actor: 'jmartin',
				status: 'in_progress',
				minutesAgo: 12,
				title: 'Disable Place order while submitting',
				jobs: [
					{ name: 'lint', status: 'completed', conclusion: 'success' },
					{ name: 'test', status: 'in_progress' },
					{ name: 'build', status: 'queued' },
				],
			},
			{
				workflow: 'Deploy',
				event: 'push',
				branch: 'main',
				actor: 'kmensah',
				status: 'queued',
				minutesAgo: 3,
				title: 'Deploy main to staging (retry)',
			},
		],
		snapshot: {
			manifest: 'package-lock.json',
			detector: 'npm-lockfile',
			packages: {
				lodash: { purl: 'pkg:npm/lodash@4.17.15', relationship: 'direct', scope: 'runtime' },
				axios: { purl: 'pkg:npm/axios@0.21.1', relationship: 'direct', scope: 'runtime' },
				minimist: { purl: 'pkg:npm/minimist@1.2.5', relationship: 'indirect', scope: 'development' },
				react: { purl: 'pkg:npm/react@18.2.0', relationship: 'direct', scope: 'runtime' },
				'follow-redirects': { purl: 'pkg:npm/follow-redirects@1.14.0', relationship: 'indirect', scope: 'runtime' },
			},
		},
		delegatedDismissal: true,
	},
	{
		owner: 'northwind-eng',
		name: 'payments-api',
		description: 'Payment orchestration: checkouts, captures and refunds',
		visibility: 'private',
		topics: ['python', 'django', 'payments'],
		commits: [
			{
				author: 'jmartin',
				daysAgo: 40,
				message: 'Initial Django project for payments',
				files: {
					'README.md': PAYMENTS_README,
					'requirements.txt': REQUIREMENTS,
					'payments/__init__.py': '',
					'payments/checkout.py': CHECKOUT_PY,
				},
			},
			{
				author: 'rcosta',
				daysAgo: 27,
				message: 'Refunds with a captured-amount guard',
				files: { 'payments/refunds.py': REFUNDS_PY },
			},
			{ author: 'jmartin', daysAgo: 18, message: 'Run pytest on every push', files: { '.github/workflows/tests.yml': PY_CI_YML } },
			{
				author: 'rcosta',
				daysAgo: 6,
				message: 'Reject zero-amount checkouts',
				files: {
					'tests/test_checkout.py':
						'import pytest\n\nfrom payments.checkout import create_checkout\n\n\ndef test_empty_checkout_is_refused():\n    with pytest.raises(ValueError):\n        create_checkout([], "key")\n',
				},
			},
		],
		tags: { 'v1.0.0': 2 },
		releases: [
			{
				tag: 'v1.1.0',
				name: 'payments-api 1.1.0',
				author: 'jmartin',
				body: '- Zero-amount checkouts are refused\n- Refunds never exceed the captured amount',
			},
		],
		labels: [{ name: 'psp', color: '5319e7', description: 'Payment service provider integration' }],
		milestones: [{ title: 'Q1 hardening', description: 'PCI review follow-ups', dueInDays: 30 }],
		issues: [
			{
				author: 'vkumar',
				title: 'Audit finding: refund endpoint lacks rate limiting',
				labels: ['psp'],
				milestone: 'Q1 hardening',
				assignees: ['jmartin'],
				body: 'Finding **NW-2026-07** (medium): `POST /v1/refunds` accepts unlimited requests per API key. Recommend 10/min per merchant with a 429 and `Retry-After`.',
				comments: [
					{
						author: 'jmartin',
						body: 'Agreed. We will add it with the existing token-bucket middleware; ETA next sprint.',
						reactions: { '+1': ['vkumar', 'rcosta'] },
					},
				],
				reactions: { eyes: ['rcosta'] },
			},
			{
				author: 'tnguyen',
				title: 'Pin PyYAML ≥ 5.4 (arbitrary code execution in full_load)',
				labels: ['bug'],
				body: '`PyYAML==5.3.1` is affected by CVE-2020-14343. We do not call `full_load`, but the dependency is flagged; please bump it.',
				closed: { by: 'rcosta', reason: 'completed' },
				comments: [{ author: 'rcosta', body: 'Bumped in the next release branch.' }],
			},
			{
				author: 'rcosta',
				title: 'Partial captures for split shipments',
				labels: ['enhancement', 'psp'],
				milestone: 'Q1 hardening',
				body: `Orders shipped in several parcels are captured in full at the first shipment today. The PSP supports partial captures:

\`\`\`python
client.capture(authorization_id, amount_cents=1999, final=False)
\`\`\`

- [ ] store captured amounts per shipment
- [ ] refund logic must use the sum of captures
- [ ] migration for existing authorizations`,
				reactions: { '+1': ['jmartin'], eyes: ['mchen'] },
				comments: [
					{ author: 'jmartin', body: 'Refunds already check `captured - refunded`, so the second box is mostly tests. 👍' },
				],
			},
		],
		pulls: [
			{
				author: 'jmartin',
				title: 'Rate-limit refunds per merchant (10/min)',
				branch: 'feature/refund-rate-limit',
				body: 'Applies the token-bucket middleware to `POST /v1/refunds`: 10 requests a minute per merchant, then 429 with `Retry-After`.\n\nFixes #1.',
				commits: [
					{
						author: 'jmartin',
						daysAgo: 2,
						message: 'Token bucket on the refund endpoint',
						files: {
							'app/limits.py':
								'REFUNDS_PER_MINUTE = 10\n\n\ndef retry_after(tokens: float) -> int:\n    # Seconds until one token is back.\n    return max(1, int((1 - tokens) * 60 / REFUNDS_PER_MINUTE))\n',
						},
					},
				],
				labels: ['psp'],
				reviewers: ['rcosta'],
				comments: [
					{
						author: 'rcosta',
						body: 'Could the limit come from settings? Large merchants will ask.',
						reactions: { '+1': ['jmartin'] },
					},
				],
			},
		],
		collaborators: { vkumar: 'pull' },
		stars: ['jmartin', 'rcosta', 'mchen'],
		watchers: ['jmartin', 'tnguyen'],
		environments: [{ name: 'staging' }, { name: 'production', branches: ['main'] }],
		deployments: [
			{ environment: 'staging', creator: 'jmartin', description: 'payments-api to staging', statuses: ['in_progress', 'success'] },
			{
				environment: 'production',
				creator: 'nkowalski',
				description: 'payments-api 1.1.0',
				statuses: ['queued', 'in_progress', 'error'],
			},
		],
		workflows: [{ name: 'Tests', path: '.github/workflows/tests.yml', jobs: [{ name: 'pytest' }] }],
		runs: [
			{
				workflow: 'Tests',
				event: 'push',
				branch: 'main',
				actor: 'jmartin',
				status: 'completed',
				conclusion: 'success',
				minutesAgo: 25000,
				title: 'Run pytest on every push',
			},
			{
				workflow: 'Tests',
				event: 'push',
				branch: 'main',
				actor: 'rcosta',
				status: 'completed',
				conclusion: 'failure',
				minutesAgo: 8700,
				title: 'Reject zero-amount checkouts',
			},
			{
				workflow: 'Tests',
				event: 'push',
				branch: 'main',
				actor: 'rcosta',
				status: 'completed',
				conclusion: 'success',
				minutesAgo: 8600,
				title: 'Reject zero-amount checkouts',
			},
			{
				workflow: 'Tests',
				event: 'workflow_dispatch',
				branch: 'main',
				actor: 'jmartin',
				status: 'waiting',
				minutesAgo: 5,
				title: 'Tests',
			},
			{
				workflow: 'Tests',
				event: 'schedule',
				branch: 'main',
				actor: 'jmartin',
				status: 'completed',
				conclusion: 'skipped',
				minutesAgo: 1440,
				title: 'Tests',
			},
			{
				workflow: 'Tests',
				event: 'push',
				branch: 'main',
				actor: 'rcosta',
				status: 'requested',
				minutesAgo: 1,
				title: 'Reject zero-amount checkouts',
			},
		],
		snapshot: {
			manifest: 'requirements.txt',
			detector: 'pip-requirements',
			packages: {
				django: { purl: 'pkg:pypi/django@3.2.4', relationship: 'direct', scope: 'runtime' },
				requests: { purl: 'pkg:pypi/requests@2.25.1', relationship: 'direct', scope: 'runtime' },
				pyyaml: { purl: 'pkg:pypi/pyyaml@5.3.1', relationship: 'direct', scope: 'runtime' },
				urllib3: { purl: 'pkg:pypi/urllib3@1.26.4', relationship: 'indirect', scope: 'runtime' },
			},
		},
	},
	{
		owner: 'northwind-eng',
		name: 'design-system',
		description: 'Colour, spacing and typography tokens plus React components',
		visibility: 'internal',
		topics: ['design-tokens', 'react'],
		commits: [
			{
				author: 'ilarsen',
				daysAgo: 50,
				message: 'Tokens v1',
				files: {
					'README.md': simpleReadme('Design system', 'Tokens and components shared by storefront and mobile-app.'),
					'tokens/colors.json': '{\n  "primary": "#0b5fff",\n  "link-muted": "#6b7280"\n}\n',
					'package.json': '{\n  "name": "@northwind/design-system",\n  "version": "1.4.0"\n}\n',
				},
			},
			{
				author: 'asingh',
				daysAgo: 12,
				message: 'Darken link-muted for 4.5:1 contrast',
				files: { 'tokens/colors.json': '{\n  "primary": "#0b5fff",\n  "link-muted": "#4b5563"\n}\n' },
			},
		],
		issues: [
			{
				author: 'ilarsen',
				title: 'Make tokens themable (light/dark)',
				labels: ['enhancement'],
				body: 'Split tokens into a base palette and semantic aliases so a theme only remaps aliases.',
				reactions: { '+1': ['asingh', 'sgarcia'], heart: ['jmartin'] },
				comments: [
					{
						author: 'asingh',
						body: 'Dark mode needs its own contrast checks; happy to pair on the alias list.',
						reactions: { heart: ['ilarsen'] },
					},
					{ author: 'ilarsen', body: 'First step in the pull request: semantic aliases over the current palette.' },
				],
			},
		],
		pulls: [
			{
				author: 'ilarsen',
				title: 'Semantic color aliases over the base palette',
				branch: 'feature/semantic-aliases',
				body: 'Adds `tokens/aliases.json`: components read `text`, `link`, `surface` instead of raw colours, so a theme only remaps aliases.\n\nPart of #1.',
				commits: [
					{
						author: 'ilarsen',
						daysAgo: 3,
						message: 'Semantic aliases for text, link and surface',
						files: {
							'tokens/aliases.json': '{\n  "text": "{link-muted}",\n  "link": "{primary}",\n  "surface": "#ffffff"\n}\n',
						},
					},
				],
				labels: ['enhancement'],
				reviewers: ['asingh'],
				reviews: [{ author: 'asingh', event: 'COMMENT', body: 'Looks right; `surface` will need a dark value too.' }],
			},
		],
		stars: ['ilarsen', 'asingh', 'sgarcia'],
		watchers: ['ilarsen'],
	},
	{
		owner: 'northwind-eng',
		name: 'mobile-app',
		description: 'Northwind shopping app for iOS and Android (React Native)',
		visibility: 'internal',
		topics: ['react-native', 'ios', 'android'],
		commits: [
			{
				author: 'sgarcia',
				daysAgo: 45,
				message: 'Expo project skeleton',
				files: {
					'README.md': simpleReadme('mobile-app', 'Run `npx expo start` and scan the QR code.'),
					'App.tsx':
						"import { Text } from 'react-native';\n\nexport default function App() {\n\treturn <Text>Northwind</Text>;\n}\n",
				},
			},
			{
				author: 'sgarcia',
				daysAgo: 11,
				message: 'Offline cart persisted with AsyncStorage',
				files: {
					'src/cart.ts':
						"import AsyncStorage from '@react-native-async-storage/async-storage';\n\nexport const saveCart = (cart: unknown) => AsyncStorage.setItem('cart', JSON.stringify(cart));\n",
				},
			},
		],
		issues: [
			{
				author: 'sgarcia',
				title: 'Sync the offline cart on reconnect',
				body: '- [ ] listen to NetInfo\n- [ ] merge server and local carts\n- [ ] conflict rule: newest quantity wins',
				assignees: ['sgarcia'],
				reactions: { '+1': ['ilarsen'] },
				comments: [
					{
						author: 'ilarsen',
						body: 'Could the cart show a small "offline" badge while it waits to sync?',
						reactions: { '+1': ['sgarcia'] },
					},
				],
			},
		],
		pulls: [
			{
				author: 'sgarcia',
				title: 'Sync the offline cart when the connection returns',
				branch: 'feature/cart-sync',
				body: 'Listens to NetInfo and merges the local cart into the server cart on reconnect (newest quantity wins).\n\nPart of #1.',
				commits: [
					{
						author: 'sgarcia',
						daysAgo: 2,
						message: 'Merge the local cart on reconnect',
						files: {
							'src/sync.ts':
								"import NetInfo from '@react-native-community/netinfo';\n\nexport const onReconnect = (sync: () => void) =>\n\tNetInfo.addEventListener((state) => {\n\t\tif (state.isConnected) sync();\n\t});\n",
						},
					},
				],
				reviewers: ['ilarsen'],
				comments: [{ author: 'ilarsen', body: 'Works on a flaky train connection 🚆', reactions: { hooray: ['sgarcia'] } }],
			},
		],
		stars: ['sgarcia'],
		watchers: ['sgarcia'],
	},
	{
		owner: 'northwind-eng',
		name: 'infra',
		description: 'Terraform for the Northwind platform (AWS) and runner fleet',
		visibility: 'private',
		topics: ['terraform', 'aws'],
		commits: [
			{
				author: 'nkowalski',
				daysAgo: 60,
				message: 'VPC, subnets and the EKS cluster',
				files: {
					'README.md': simpleReadme('infra', 'Apply with `terraform -chdir=envs/prod apply` after review in #sre.'),
					'envs/prod/main.tf': 'module "vpc" {\n  source = "../../modules/vpc"\n  cidr   = "10.20.0.0/16"\n}\n',
				},
			},
			{
				author: 'kmensah',
				daysAgo: 19,
				message: 'Self-hosted runner autoscaling group',
				files: { 'modules/runners/main.tf': 'resource "aws_autoscaling_group" "runners" {\n  min_size = 2\n  max_size = 12\n}\n' },
			},
			{
				author: 'nkowalski',
				daysAgo: 4,
				message: 'Raise runner max size for release week',
				files: { 'modules/runners/main.tf': 'resource "aws_autoscaling_group" "runners" {\n  min_size = 2\n  max_size = 20\n}\n' },
			},
		],
		issues: [
			{
				author: 'kmensah',
				title: 'Runner nw-build-03 keeps going offline',
				labels: ['bug'],
				assignees: ['nkowalski'],
				body: 'The instance is healthy but the runner service exits with `Runner connect error: 401`. Token rotation?',
				reactions: { eyes: ['nkowalski'] },
				comments: [
					{
						author: 'nkowalski',
						body: 'Yes: the registration token expired after the AMI rebuild. Fetching it at boot now.',
						reactions: { '+1': ['kmensah'], rocket: ['kmensah'] },
					},
				],
			},
		],
		pulls: [
			{
				author: 'nkowalski',
				title: 'Runners: fetch the registration token at boot',
				branch: 'fix/runner-token',
				body: 'The token baked into the AMI expires after an hour; the launch template now fetches a fresh one.\n\nFixes #1.',
				commits: [
					{
						author: 'nkowalski',
						daysAgo: 1,
						message: 'Fetch the runner registration token in user data',
						files: {
							'modules/runners/user-data.sh':
								'#!/bin/sh\nset -eu\nTOKEN=$(aws ssm get-parameter --name /runners/registration-token --with-decryption --query Parameter.Value --output text)\n./config.sh --unattended --token "$TOKEN"\n',
						},
					},
				],
				labels: ['bug'],
				reviewers: ['kmensah'],
				reviews: [{ author: 'kmensah', event: 'APPROVE', body: 'Tested on nw-build-03: online after a reboot.' }],
			},
		],
		stars: ['nkowalski', 'kmensah'],
		watchers: ['nkowalski', 'kmensah'],
	},
	{
		owner: 'northwind-data',
		name: 'pipeline',
		description: 'Ingestion jobs: orders, inventory and web analytics into the warehouse',
		visibility: 'private',
		topics: ['airflow', 'python', 'etl'],
		commits: [
			{
				author: 'hsato',
				daysAgo: 38,
				message: 'Orders ingestion DAG',
				files: {
					'README.md': simpleReadme('pipeline', 'Airflow DAGs loading the warehouse every hour.'),
					'requirements.txt': 'apache-airflow==2.7.0\nrequests==2.25.1\nurllib3==1.26.4\n',
					'dags/orders.py':
						'from airflow import DAG\n\nwith DAG("orders", schedule="@hourly", catchup=False) as dag:\n    pass\n',
				},
			},
			{
				author: 'efischer',
				daysAgo: 13,
				message: 'Export features for the demand forecast',
				files: {
					'dags/features.py': 'from airflow import DAG\n\nwith DAG("forecast_features", schedule="@daily") as dag:\n    pass\n',
				},
			},
			{
				author: 'hsato',
				daysAgo: 3,
				message: 'Retry the inventory API with backoff',
				files: { 'dags/inventory.py': 'RETRIES = 5\nBACKOFF_SECONDS = 30\n' },
			},
		],
		issues: [
			{
				author: 'dobrien',
				title: 'Orders DAG misses late-arriving refunds',
				labels: ['bug'],
				assignees: ['hsato'],
				body: 'Refunds posted after midnight UTC land in the next day. The daily revenue dashboard is off by ~0.4%.',
				reactions: { '+1': ['cokafor'] },
				comments: [
					{
						author: 'hsato',
						body: 'We can reprocess a 3-day window each run; the MERGE is idempotent.',
						reactions: { hooray: ['dobrien'] },
					},
				],
			},
		],
		pulls: [
			{
				author: 'hsato',
				title: 'Orders DAG: reprocess a three-day window',
				branch: 'fix/late-refunds',
				body: 'Each run reloads the last three days so refunds posted after midnight UTC are counted on their day.\n\nFixes #1.',
				commits: [
					{
						author: 'hsato',
						daysAgo: 1,
						message: 'Reprocess three days of orders each run',
						files: {
							'dags/orders.py':
								'from airflow import DAG\n\nLOOKBACK_DAYS = 3\n\nwith DAG("orders", schedule="@hourly", catchup=False) as dag:\n    pass\n',
						},
					},
				],
				labels: ['bug'],
				reviewers: ['dobrien'],
				comments: [
					{
						author: 'dobrien',
						body: 'Revenue dashboard matches finance again on the staging run.',
						reactions: { '+1': ['hsato'] },
					},
				],
			},
		],
		stars: ['hsato', 'cokafor'],
		watchers: ['hsato'],
		workflows: [{ name: 'Lint DAGs', path: '.github/workflows/lint.yml', jobs: [{ name: 'ruff' }] }],
		runs: [
			{
				workflow: 'Lint DAGs',
				event: 'push',
				branch: 'main',
				actor: 'hsato',
				status: 'completed',
				conclusion: 'success',
				minutesAgo: 4300,
				title: 'Retry the inventory API with backoff',
			},
			{
				workflow: 'Lint DAGs',
				event: 'schedule',
				branch: 'main',
				actor: 'hsato',
				status: 'completed',
				conclusion: 'neutral',
				minutesAgo: 1400,
				title: 'Lint DAGs',
			},
			{
				workflow: 'Lint DAGs',
				event: 'workflow_dispatch',
				branch: 'main',
				actor: 'cokafor',
				status: 'completed',
				conclusion: 'action_required',
				minutesAgo: 200,
				title: 'Lint DAGs',
			},
			{ workflow: 'Lint DAGs', event: 'push', branch: 'main', actor: 'hsato', status: 'pending', minutesAgo: 1, title: 'Lint DAGs' },
		],
		snapshot: {
			manifest: 'requirements.txt',
			detector: 'pip-requirements',
			packages: {
				requests: { purl: 'pkg:pypi/requests@2.25.1', relationship: 'direct', scope: 'runtime' },
				urllib3: { purl: 'pkg:pypi/urllib3@1.26.4', relationship: 'direct', scope: 'runtime' },
			},
		},
	},
	{
		owner: 'northwind-data',
		name: 'warehouse-models',
		description: 'dbt models for the Northwind warehouse',
		visibility: 'internal',
		topics: ['dbt', 'sql'],
		commits: [
			{
				author: 'dobrien',
				daysAgo: 33,
				message: 'Staging models for orders and refunds',
				files: {
					'README.md': simpleReadme('warehouse-models', '`dbt build --select +fct_revenue`'),
					'models/stg_orders.sql': 'select id, customer_id, total_cents, created_at from {{ source("shop", "orders") }}\n',
				},
			},
			{
				author: 'yhassan',
				daysAgo: 7,
				message: 'Revenue fact table',
				files: {
					'models/fct_revenue.sql':
						'select date_trunc(day, created_at) as day, sum(total_cents) / 100.0 as revenue from {{ ref("stg_orders") }} group by 1\n',
				},
			},
		],
		stars: ['dobrien'],
		watchers: ['dobrien'],
	},
	{
		owner: 'northwind-data',
		name: 'dashboards',
		description: 'Metric definitions and dashboard JSON for the BI tool',
		visibility: 'public',
		topics: ['analytics'],
		commits: [
			{
				author: 'dobrien',
				daysAgo: 20,
				message: 'Revenue and conversion dashboards',
				files: {
					'README.md': simpleReadme('dashboards', 'Exported dashboards, reviewed like code.'),
					'revenue.json': '{\n  "title": "Daily revenue",\n  "metric": "fct_revenue.revenue"\n}\n',
				},
			},
		],
		stars: ['dobrien', 'yhassan', 'mchen'],
		watchers: [],
	},
	{
		owner: 'northwind-labs',
		name: 'edge-cache',
		description: 'Experiment: a WebAssembly cache at the CDN edge for catalogue pages',
		visibility: 'public',
		topics: ['wasm', 'rust', 'cdn'],
		commits: [
			{
				author: 'mrossi',
				daysAgo: 29,
				message: 'Proof of concept in Rust',
				files: {
					'README.md': simpleReadme('edge-cache', 'Caches rendered catalogue pages at the edge; invalidated by product events.'),
					'Cargo.toml': '[package]\nname = "edge-cache"\nversion = "0.1.0"\nedition = "2021"\n',
					'src/lib.rs': 'pub fn cache_key(path: &str, locale: &str) -> String {\n    format!("{locale}:{path}")\n}\n',
				},
			},
			{ author: 'mrossi', daysAgo: 5, message: 'Add a benchmark of the cache key', files: { 'benches/key.rs': '// cargo bench\n' } },
		],
		issues: [
			{
				author: 'lpetrova',
				title: 'Measure hit rate on the pilot region',
				body: 'Before we pitch this: what hit rate do we get for eu-central with a 60 s TTL?',
				assignees: ['mrossi'],
			},
		],
		stars: ['lpetrova', 'mrossi', 'asingh', 'efischer'],
		watchers: ['mrossi'],
	},
	{
		owner: 'northwind-labs',
		name: 'forecast-notebooks',
		description: 'Demand-forecast notebooks and experiments',
		visibility: 'private',
		topics: ['jupyter', 'forecasting'],
		commits: [
			{
				author: 'efischer',
				daysAgo: 16,
				message: 'Baseline forecast notebook',
				files: {
					'README.md': simpleReadme('forecast-notebooks', 'Start with `notebooks/baseline.ipynb`.'),
					'notebooks/baseline.ipynb': '{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}\n',
				},
			},
		],
		stars: ['efischer'],
		watchers: ['efischer'],
	},
	{
		owner: 'jmartin',
		name: 'dotfiles',
		description: 'My shell, git and editor configuration',
		visibility: 'public',
		topics: ['dotfiles'],
		commits: [
			{
				author: 'jmartin',
				daysAgo: 70,
				message: 'Initial dotfiles',
				files: {
					'README.md': simpleReadme('dotfiles', 'Symlink with `./install.sh`.'),
					'.gitconfig': '[pull]\n\trebase = true\n[init]\n\tdefaultBranch = main\n',
				},
			},
		],
		stars: ['rcosta'],
		watchers: [],
	},
];

// ------------------------------------------------------------------------ security advisories

const advisory = (
	ghsa: string,
	cve: string,
	summary: string,
	severity: string,
	ecosystem: string,
	pkg: string,
	range: string,
	patched: string,
	daysAgo: number,
	cwe: [string, string],
) => ({
	ghsa_id: ghsa,
	cve_id: cve,
	type: 'reviewed',
	summary,
	description: `${summary}. Upgrade ${pkg} to ${patched} or later.`,
	severity,
	source_code_location: null,
	identifiers: [
		{ type: 'GHSA', value: ghsa },
		{ type: 'CVE', value: cve },
	],
	references: [`https://nvd.nist.gov/vuln/detail/${cve}`],
	vulnerabilities: [
		{ package: { ecosystem, name: pkg }, vulnerable_version_range: range, first_patched_version: patched, vulnerable_functions: [] },
	],
	cwes: [{ cwe_id: cwe[0], name: cwe[1] }],
	daysAgo,
});

/** Advisories in GitHub's global form; published_at/updated_at are set from daysAgo at seeding. */
export const ADVISORIES = [
	advisory('GHSA-35jh-r3h4-6jhm', 'CVE-2021-23337', 'Command Injection in lodash', 'high', 'npm', 'lodash', '< 4.17.21', '4.17.21', 900, [
		'CWE-77',
		'Command Injection',
	]),
	advisory(
		'GHSA-wf5p-g6vw-rhxx',
		'CVE-2023-45857',
		'Axios Cross-Site Request Forgery Vulnerability',
		'medium',
		'npm',
		'axios',
		'>= 0.8.1, < 1.6.0',
		'1.6.0',
		380,
		['CWE-352', 'Cross-Site Request Forgery (CSRF)'],
	),
	advisory(
		'GHSA-xvch-5gv4-984h',
		'CVE-2021-44906',
		'Prototype Pollution in minimist',
		'critical',
		'npm',
		'minimist',
		'< 1.2.6',
		'1.2.6',
		700,
		['CWE-1321', 'Prototype Pollution'],
	),
	advisory(
		'GHSA-74fj-2j2h-c42q',
		'CVE-2022-0155',
		'Exposure of sensitive information in follow-redirects',
		'medium',
		'npm',
		'follow-redirects',
		'< 1.14.7',
		'1.14.7',
		650,
		['CWE-359', 'Exposure of Private Personal Information'],
	),
	advisory(
		'GHSA-j8r2-6x86-q33q',
		'CVE-2023-32681',
		'Unintended leak of Proxy-Authorization header in requests',
		'medium',
		'pip',
		'requests',
		'>= 2.3.0, < 2.31.0',
		'2.31.0',
		400,
		['CWE-200', 'Exposure of Sensitive Information'],
	),
	advisory(
		'GHSA-8q59-q68h-6hv4',
		'CVE-2020-14343',
		'Improper Input Validation in PyYAML',
		'critical',
		'pip',
		'pyyaml',
		'< 5.4',
		'5.4',
		1200,
		['CWE-20', 'Improper Input Validation'],
	),
	advisory(
		'GHSA-v845-jxx5-vc9f',
		'CVE-2023-43804',
		'Cookie HTTP header not stripped on cross-origin redirects in urllib3',
		'medium',
		'pip',
		'urllib3',
		'< 1.26.17',
		'1.26.17',
		420,
		['CWE-200', 'Exposure of Sensitive Information'],
	),
	advisory(
		'GHSA-2hrw-hx67-34x6',
		'CVE-2021-33203',
		'Path traversal in Django admindocs',
		'medium',
		'pip',
		'django',
		'>= 3.2, < 3.2.5',
		'3.2.5',
		850,
		['CWE-22', 'Path Traversal'],
	),
];

// ------------------------------------------------------------------------ gists

export const GISTS: DemoGist[] = [
	{
		owner: 'nkowalski',
		description: 'kubectl one-liners for on-call',
		public: true,
		files: {
			'oncall.md':
				'# On-call one-liners\n\n```sh\nkubectl get pods -A --field-selector=status.phase!=Running\nkubectl top pods -n storefront --sort-by=memory | head\n```\n',
		},
		comments: [{ author: 'kmensah', body: 'Add `kubectl rollout history` — saved me last night.' }],
		stars: ['kmensah', 'jmartin'],
	},
	{
		owner: 'jmartin',
		description: 'Idempotency-key middleware sketch',
		public: true,
		files: {
			'idempotency.py':
				'def idempotent(view):\n    def wrapper(request, *args, **kwargs):\n        key = request.headers["Idempotency-Key"]\n        return cache.get(key) or cache.set(key, view(request, *args, **kwargs))\n    return wrapper\n',
		},
		stars: ['rcosta'],
	},
	{
		owner: 'tnguyen',
		description: 'Triage checklist for dependabot alerts',
		public: false,
		files: {
			'triage.md':
				'- [ ] Is the vulnerable function reachable?\n- [ ] Is there a patched version?\n- [ ] Runtime or development dependency?\n',
		},
	},
];
