/** Octicons (GitHub's icons, @primer/octicons) as inline SVG; only ICON_NAMES are embedded. */
import type { IconName } from './icon-names';
import { webAssets } from './assets';

/** An icon, decorative unless given a label (then it is an image with that name). */
export function Octicon({ name, class: className, label }: { name: IconName; class?: string; label?: string }) {
	const icon = webAssets().icons[name];
	return (
		<svg
			class={`octicon octicon-${name}${className ? ` ${className}` : ''}`}
			viewBox={`0 0 ${icon.width} ${icon.height}`}
			width={icon.width}
			height={icon.height}
			aria-hidden={label ? undefined : 'true'}
			role={label ? 'img' : undefined}
			aria-label={label}
			fill="currentColor"
			dangerouslySetInnerHTML={{ __html: icon.path }}
		/>
	);
}
