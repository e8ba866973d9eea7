/**
 * The admin commands that work on the data folder's files rather than through an opened
 * application: `backup`, `restore` (src/cli/backup.ts) and `check` (src/cli/check.ts).
 */
import { parse } from './admin';
import { BACKUP_COMMANDS, type StorageCommand } from './backup';
import { CHECK_COMMANDS } from './check';
import { CliError } from './output';

/** Every storage command by name. */
export const STORAGE_COMMANDS: Record<string, StorageCommand> = { ...BACKUP_COMMANDS, ...CHECK_COMMANDS };

/** Parses a storage command's arguments. @throws CliError for an unknown command or bad arguments */
export function parseStorage(name: string, args: string[]) {
	const command = STORAGE_COMMANDS[name];
	if (!command) throw new CliError(`unknown admin command "${name}" (see gitstead admin --help)`);
	return { command, ...parse(args, command.options, command.positionals) };
}
