/**
 * The one enhancement script. Pages are complete without it; it adds behaviour on top.
 * (Interactivity, consent, tracking and the WhatsApp handoff arrive with the client issue.)
 */
document.documentElement.classList.add('js');
