// Gitstead's only script: small enhancements; every page works without it.
(() => {
	// Copy buttons: <button data-copy="text">.
	document.addEventListener('click', (event) => {
		const button = event.target.closest?.('[data-copy]');
		if (!button || !navigator.clipboard) return;
		navigator.clipboard.writeText(button.getAttribute('data-copy')).then(() => {
			button.setAttribute('aria-label', 'Copied!');
		});
	});
	// Line ranges in file views: #L10-L20 highlights those lines; shift-click on a number extends.
	const selectLines = () => {
		for (const row of document.querySelectorAll('tr.gs-selected')) row.classList.remove('gs-selected');
		const match = /^#L(\d+)(?:-L(\d+))?$/.exec(location.hash);
		if (!match) return;
		const a = Number(match[1]);
		const b = Number(match[2] || match[1]);
		const from = Math.min(a, b);
		const to = Math.max(a, b);
		for (let n = from; n <= to && n - from < 5000; n++) document.getElementById(`L${n}`)?.classList.add('gs-selected');
		document.getElementById(`L${from}`)?.scrollIntoView({ block: 'center' });
	};
	let anchor = null;
	document.addEventListener('click', (event) => {
		const link = event.target.closest?.('a[data-line]');
		if (!link) return;
		const line = Number(link.getAttribute('data-line'));
		if (event.shiftKey && anchor !== null) {
			event.preventDefault();
			history.replaceState(null, '', `#L${Math.min(anchor, line)}-L${Math.max(anchor, line)}`);
			selectLines();
			return;
		}
		anchor = line;
	});
	// "Close issue" reads "Close with comment" while the comment box holds text (the form sends both either way).
	document.addEventListener('input', (event) => {
		const box = event.target;
		if (!box.matches?.('textarea[name="comment_body"]')) return;
		const button = box.form?.querySelector('button[data-with-comment]');
		const label = button?.lastChild;
		if (!label || label.nodeType !== Node.TEXT_NODE) return;
		if (!button.dataset.plain) button.dataset.plain = label.textContent;
		label.textContent = box.value.trim() ? ` ${button.dataset.withComment}` : button.dataset.plain;
	});
	window.addEventListener('hashchange', selectLines);
	if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', selectLines);
	else selectLines();
})();
