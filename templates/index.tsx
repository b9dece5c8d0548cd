/**
 * The template set: `Document` wraps every page; `pages` maps the template ids used in
 * content/pages.yaml (and the built-in blog, post, redirect and landing routes) to components.
 */
export { Document } from './Document.tsx';
import type { Translate } from '@site/api';
import type { Site } from './model/index.ts';
import { SHARED_DATA_FILE, sharedClientData } from './client-data.ts';
import { Home } from './pages/Home.tsx';
import { About } from './pages/About.tsx';
import { Rates } from './pages/Rates.tsx';
import { Booking } from './pages/Booking.tsx';
import { Contact } from './pages/Contact.tsx';
import { City } from './pages/City.tsx';
import { Service } from './pages/Service.tsx';
import { Blog } from './pages/Blog.tsx';
import { Post } from './pages/Post.tsx';
import { Legal } from './pages/Legal.tsx';
import { NotFound } from './pages/NotFound.tsx';
import { Admin } from './pages/Admin.tsx';
import { Landing, Redirect } from './pages/Forward.tsx';

export const pages = {
  home: Home,
  about: About,
  rates: Rates,
  booking: Booking,
  contact: Contact,
  city: City,
  service: Service,
  blog: Blog,
  post: Post,
  legal: Legal,
  'not-found': NotFound,
  admin: Admin,
  redirect: Redirect,
  landing: Landing,
};

/** Files derived from the whole site, published hashed under assets/: the client data every page shares. */
export function assetFiles(site: Site, textsOf: (lang: string) => Translate): Record<string, string> {
  return { [SHARED_DATA_FILE]: JSON.stringify(sharedClientData(site, textsOf)) };
}
