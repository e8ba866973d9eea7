/**
 * GitHub's GraphQL limits, checked on the parsed and validated document BEFORE anything executes
 * (docs: graphql/overview/rate-limits-and-query-limits-for-the-graphql-api):
 * - every connection needs `first` or `last`, each between 0 and 100 (not one asked for its
 *   totalCount only)
 *   (MISSING_PAGINATION_BOUNDARIES, EXCESSIVE_PAGINATION);
 * - at most 500,000 nodes in total, counted as the product of the `first`/`last` values along each
 *   path of connections (MAX_NODE_LIMIT_EXCEEDED);
 * - the cost in points: the number of requests the connections need (one per parent: a
 *   connection nested in a connection of 50 items needs 50) divided by 100, rounded to the nearest
 *   whole number, at least 1;
 * - a query depth of at most MAX_DEPTH fields (Gitstead's; GitHub does not publish its own).
 * Introspection fields (__schema, __type) are neither connections nor counted.
 */
import {
	getNamedType,
	isObjectType,
	isInterfaceType,
	Kind,
	type FieldNode,
	type FragmentDefinitionNode,
	type GraphQLCompositeType,
	type GraphQLSchema,
	type OperationDefinitionNode,
	type SelectionSetNode,
	type ValueNode,
	isCompositeType,
	isUnionType,
	valueFromASTUntyped,
} from 'graphql';

/** Most nodes a query may ask for (GitHub's). */
export const MAX_NODES = 500_000;
/** Most items one connection may return (GitHub's `first`/`last` limit). */
export const MAX_PAGE = 100;
/** Deepest nesting of fields. */
export const MAX_DEPTH = 25;

/** An error found before execution, in GitHub's shape. */
export interface LimitError {
	type?: string;
	path: string[];
	locations: Array<{ line: number; column: number }>;
	message: string;
}

/** What the check found: errors (nothing runs), or the node count and the cost in points. */
export interface QueryCost {
	errors: LimitError[];
	nodeCount: number;
	/** Points: round(requests / 100), at least 1. */
	cost: number;
}

/** Walks the operation: pagination arguments, nodes and requests. */
export function checkLimits(
	schema: GraphQLSchema,
	operation: OperationDefinitionNode,
	fragments: Record<string, FragmentDefinitionNode>,
	variables: Record<string, unknown>,
): QueryCost {
	// A variable the request leaves out takes its declared default (`$per_page: Int = 10`).
	const defaults = Object.fromEntries(
		(operation.variableDefinitions ?? [])
			.filter((d) => d.defaultValue && !(d.variable.name.value in variables))
			.map((d) => [d.variable.name.value, valueFromASTUntyped(d.defaultValue!)]),
	);
	variables = { ...variables, ...defaults };
	const errors: LimitError[] = [];
	let nodes = 0;
	let requests = 0;
	let deepest = 0;
	const root = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
	const rootName = operation.operation;
	const argument = (field: FieldNode, name: string): number | null | undefined => {
		const arg = field.arguments?.find((a) => a.name.value === name);
		if (!arg) return undefined;
		return numberValue(arg.value, variables);
	};
	const walk = (
		set: SelectionSetNode,
		type: GraphQLCompositeType,
		multiplier: number,
		path: string[],
		depth: number,
		seen: Set<string>,
	) => {
		for (const selection of set.selections) {
			if (selection.kind === Kind.INLINE_FRAGMENT) {
				const on = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : type;
				if (on && isCompositeType(on)) walk(selection.selectionSet, on, multiplier, path, depth, seen);
				continue;
			}
			if (selection.kind === Kind.FRAGMENT_SPREAD) {
				const fragment = fragments[selection.name.value];
				if (!fragment || seen.has(fragment.name.value)) continue;
				const on = schema.getType(fragment.typeCondition.name.value);
				if (on && isCompositeType(on))
					walk(fragment.selectionSet, on, multiplier, path, depth, new Set([...seen, fragment.name.value]));
				continue;
			}
			const name = selection.name.value;
			if (name.startsWith('__')) continue;
			deepest = Math.max(deepest, depth + 1);
			if (isUnionType(type) || !(isObjectType(type) || isInterfaceType(type))) continue;
			const field = type.getFields()[name];
			if (!field) continue;
			const named = getNamedType(field.type);
			const here = [...path, selection.alias?.value ?? name];
			let next = multiplier;
			// A connection asked only for its totalCount needs no page (GitHub answers
			// `reactionGroups { users { totalCount } } }` as gh sends it): no nodes, no request.
			const first = argument(selection, 'first');
			const last = argument(selection, 'last');
			const unpaged = (first === undefined || first === null) && (last === undefined || last === null);
			if (named.name.endsWith('Connection') && !(unpaged && countOnly(selection.selectionSet))) {
				const location = { line: selection.loc?.startToken.line ?? 1, column: selection.loc?.startToken.column ?? 1 };
				if (unpaged) {
					errors.push({
						type: 'MISSING_PAGINATION_BOUNDARIES',
						path: here,
						locations: [location],
						message: `You must provide a \`first\` or \`last\` value to properly paginate the \`${name}\` connection.`,
					});
					continue;
				}
				let size = 0;
				for (const [which, value] of [
					['first', first],
					['last', last],
				] as const) {
					if (value === undefined || value === null) continue;
					if (value < 0)
						errors.push({
							type: 'INVALID_PAGINATION',
							path: here,
							locations: [location],
							message: `\`${which}\` on the \`${name}\` connection cannot be less than zero.`,
						});
					else if (value > MAX_PAGE)
						errors.push({
							type: 'EXCESSIVE_PAGINATION',
							path: here,
							locations: [location],
							message: `Requesting ${value} records on the \`${name}\` connection exceeds the \`${which}\` limit of ${MAX_PAGE} records.`,
						});
					size = Math.max(size, value);
				}
				requests += multiplier;
				next = multiplier * Math.min(size, MAX_PAGE);
				nodes += next;
			}
			if (selection.selectionSet && isCompositeType(named)) walk(selection.selectionSet, named, next, here, depth + 1, seen);
		}
	};
	if (root) walk(operation.selectionSet, root, 1, [rootName], 0, new Set());
	if (deepest > MAX_DEPTH) {
		errors.push({
			path: [rootName],
			locations: [{ line: operation.loc?.startToken.line ?? 1, column: operation.loc?.startToken.column ?? 1 }],
			message: `Query has depth of ${deepest}, which exceeds max depth of ${MAX_DEPTH}`,
		});
	}
	if (errors.length === 0 && nodes > MAX_NODES) {
		errors.push({
			type: 'MAX_NODE_LIMIT_EXCEEDED',
			path: [rootName],
			locations: [{ line: operation.loc?.startToken.line ?? 1, column: operation.loc?.startToken.column ?? 1 }],
			message: `This query requests up to ${nodes.toLocaleString('en-US')} possible nodes which exceeds the maximum limit of ${MAX_NODES.toLocaleString('en-US')}.`,
		});
	}
	return { errors, nodeCount: nodes, cost: Math.max(1, Math.round(requests / 100)) };
}

/** Whether a selection asks for totalCount (and __typename) only. */
function countOnly(set: SelectionSetNode | undefined): boolean {
	if (!set) return false;
	return set.selections.every((s) => s.kind === Kind.FIELD && (s.name.value === 'totalCount' || s.name.value === '__typename'));
}

/** An Int argument's value (a literal or a variable); null for null, undefined when not a number. */
function numberValue(value: ValueNode, variables: Record<string, unknown>): number | null | undefined {
	if (value.kind === Kind.INT) return Number(value.value);
	if (value.kind === Kind.NULL) return null;
	if (value.kind === Kind.VARIABLE) {
		const v = variables[value.name.value];
		if (v === null) return null;
		return typeof v === 'number' ? v : undefined;
	}
	return undefined;
}
