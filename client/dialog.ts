/** The health documentation dialog: native <dialog>, view/hide toggle, focus back on close. */
export function initDialogs(): void {
  for (const opener of document.querySelectorAll<HTMLElement>('[data-dialog-open]')) {
    const dialog = document.getElementById(opener.dataset.dialogOpen!) as HTMLDialogElement | null;
    if (!dialog || typeof dialog.showModal !== 'function') continue;
    // A link to the details without script; with it, it opens a dialog, a button's job: named so,
    // and Space opens it as Enter does (WCAG 4.1.2).
    opener.setAttribute('role', 'button');
    opener.addEventListener('click', (e) => {
      e.preventDefault();
      dialog.showModal();
    });
    opener.addEventListener('keydown', (e) => {
      if (e.key !== ' ') return;
      e.preventDefault();
      dialog.showModal();
    });
    dialog.addEventListener('close', () => opener.focus());
    // A click on the backdrop (outside the body) closes it.
    dialog.addEventListener('click', (e) => {
      if (e.target === dialog) dialog.close();
    });
  }
  for (const toggle of document.querySelectorAll<HTMLButtonElement>('[data-toggle]')) {
    const target = document.getElementById(toggle.dataset.toggle!);
    if (!target) continue;
    toggle.hidden = false;
    const set = (open: boolean) => {
      target.hidden = !open;
      toggle.setAttribute('aria-expanded', String(open));
      toggle.querySelector<HTMLElement>('[data-when="open"]')!.hidden = !open;
      toggle.querySelector<HTMLElement>('[data-when="closed"]')!.hidden = open;
    };
    set(false);
    toggle.addEventListener('click', () => set(target.hidden));
  }
}
