/** Primer's form group: a labelled control (https://primer.style/css/components/forms). */
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
