/** Form parts: Primer's form group, a labelled control (https://primer.style/css/components/forms), and the flash that answers a form. */
import type { ComponentChildren } from 'preact';

/**
 * A form group: the label for the control `id` in its header, the control (and any note) in its
 * body.
 * @param extra classes beside `form-group` (e.g. 'mt-0')
 */
export function FormGroup({
	id,
	label,
	extra,
	children,
}: {
	id: string;
	label: ComponentChildren;
	extra?: string;
	children: ComponentChildren;
}) {
	return (
		<div class={extra ? `form-group ${extra}` : 'form-group'}>
			<div class="form-group-header">
				<label for={id}>{label}</label>
			</div>
			<div class="form-group-body">{children}</div>
		</div>
	);
}

/** An error (role=alert) or a notice box. */
export function Flash({ error, notice }: { error?: string | null; notice?: string | null }) {
	if (error)
		return (
			<div class="flash flash-error mb-3" role="alert">
				{error}
			</div>
		);
	if (notice) return <output class="flash flash-success mb-3 d-block">{notice}</output>;
	return null;
}
