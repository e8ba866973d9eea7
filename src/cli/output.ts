/**
 * Command-line output: one JSON object (--json) or one readable line; errors are one line on
 * standard error and a non-zero exit.
 */
import { DomainError } from '../model/errors';

/** An error meant for the person at the terminal; its message is the whole story. */
export class CliError extends Error {
	constructor(
		message: string,
		readonly exitCode = 1,
	) {
		super(message);
	}
}

export interface Output {
	/** Prints `json` with --json, else `line`. */
	result(json: unknown, line: string): void;
}

export function createOutput(json: boolean, write: (text: string) => void = (text) => process.stdout.write(text)): Output {
	return {
		result(value, line) {
			write(json ? `${JSON.stringify(value)}\n` : `${line}\n`);
		},
	};
}

/** One line describing an error: the field messages of a 422, else the message. */
export function describeError(error: unknown): string {
	if (error instanceof DomainError && error.errors?.length) {
		return error.errors.map((item) => item.message ?? `${item.field}: ${item.code}`).join('; ');
	}
	return error instanceof Error ? error.message : String(error);
}

/**
 * A node:util parseArgs error as one line pointing to the command's help: its first sentence
 * ("Unknown option '--colour'") and "(see gitstead <command> --help)".
 */
export function argsError(error: unknown, command: string): CliError {
	return new CliError(`${firstSentence(error)} (see gitstead ${command} --help)`);
}

/** An error's message up to its first full stop ("Unknown option '--colour'"). */
export function firstSentence(error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	return message.split(/\.\s/)[0].replace(/\.$/, '');
}
