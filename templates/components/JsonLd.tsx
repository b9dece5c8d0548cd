import { jsonForScript } from '../../src/api.ts';

/** JSON-LD as a data block: escaped so no content can close the script element. */
export function JsonLd({ data }: { data: object }) {
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonForScript(data) }} />;
}

/** Data for the client script: not executable, so the CSP's script-src 'self' still holds. */
export function ClientData({ data }: { data: object }) {
  return <script type="application/json" id="site-data" dangerouslySetInnerHTML={{ __html: jsonForScript(data) }} />;
}
