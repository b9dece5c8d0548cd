/**
 * Paths `site watch` does not watch: dotfiles, editors' swap and backup files, temporary files.
 * Their changes raise no event, so the session keeps no folder listing that holds one (session.ts).
 */
export const IGNORED = /(^|[/\\])(\.[^/\\]*|.*~|.*\.sw[a-p]|.*\.tmp)$/;
