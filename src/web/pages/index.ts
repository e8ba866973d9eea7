/** Every page of the web interface, at GitHub's paths (src/web/index.ts serves them). */
import type { PageRoute } from '../page';
import { accountPages } from './accounts';
import { codePages } from './code';
import { gistPages } from './gists';
import { settingsPages } from './settings';
import { historyPages } from './history';
import { issuePages } from './issues';
import { issueWritePages } from './issue-writes';
import { repoSettingsPages } from './repo-settings';
import { searchPages } from './search';
import { sessionPages } from './session';
import { stafftoolsPages } from './stafftools';

export const PAGES: PageRoute[] = [
	...sessionPages,
	...settingsPages,
	...accountPages,
	...codePages,
	...historyPages,
	...issuePages,
	...issueWritePages,
	...repoSettingsPages,
	...searchPages,
	...stafftoolsPages,
	...gistPages,
];
