/** The template set: `Document` wraps every page; `pages` maps template ids (pages.yaml, and the built-in blog, post, redirect and landing) to components. */
export { Document } from './Document.tsx';
import { Home } from './pages/Home.tsx';
import { Blog, Post } from './pages/Journal.tsx';
import { NotFound } from './pages/NotFound.tsx';
import { Landing, Redirect } from './pages/Forward.tsx';

export const pages = { home: Home, blog: Blog, post: Post, 'not-found': NotFound, redirect: Redirect, landing: Landing };
