/** The error pages: 404 (the same for what is missing and what the viewer may not see), 403, 429, 500. */
import type { WebContext } from '../context';
import { Layout } from './layout';

const TITLES: Record<number, string> = {
	403: 'Forbidden',
	404: 'Page not found',
	413: 'Too large',
	422: 'Cannot do that',
	429: 'Too many requests',
	500: 'Something went wrong',
};

export function ErrorPage({ ctx, status, message }: { ctx: WebContext; status: number; message?: string }) {
	const title = TITLES[status] ?? 'Error';
	return (
		<Layout ctx={ctx} title={`${title} · Gitstead`}>
			<div class="blankslate blankslate-large">
				<h1 class="blankslate-heading f1">{status}</h1>
				<p class="f3">{title}</p>
				<p>
					{message ??
						(status === 404
							? 'This is not the web page you are looking for.'
							: status === 500
								? `The error was logged with request id ${ctx.requestId}.`
								: '')}
				</p>
				{status === 404 && !ctx.user && (
					<p>
						<a href={`/login?return_to=${encodeURIComponent(ctx.path)}`}>Sign in</a> to see what your account can reach.
					</p>
				)}
			</div>
		</Layout>
	);
}
