import { jsonForScript } from '@site/api';

/** JSON-LD as a data block: escaped so no content can close the script element. */
export function JsonLd({ data }: { data: object }) {
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonForScript(data) }} />;
}
