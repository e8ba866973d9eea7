/**
 * Who writes a reference, as the rules of reference writes see it. The one reference-write path
 * (src/api/git/writes.ts moveRef) runs the rules the application was wired with (App.refRules,
 * src/compose.ts: branch protection, then rulesets), so git depends on none of the features whose
 * rules refuse writes. Likewise a push's reference updates reach the features that follow them
 * (App.pushFollowers).
 */

/** A reference update: the reference, its value before and after (null: none). */
export interface RefUpdate {
	ref: string;
	before: string | null;
	after: string | null;
}

/** Who moves the reference, for the rules administrators may bypass and for push restrictions. */
export interface RefWriter {
	/** The acting account (a user, an app's bot), or null (the command line: no restriction applies). */
	actorId: number | null;
	/** The actor administers the repository: bypasses reviews, checks, signatures, linear history and push restrictions unless enforce_admins. */
	admin: boolean;
	/** The change is a pull request's merge (required reviews are then the pull request's to check). */
	viaPullRequest?: boolean;
	/** A pull request's merge: the commit whose checks count (its head), instead of the new head of the branch. */
	checksSha?: string;
}
