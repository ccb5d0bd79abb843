import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const swaggerDir = () => path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** `/v1/docs`: Swagger UI served from the npm package (no CDN), reading `/v1/openapi.json`. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

// The console's icon (apps/web/src/app/icon.svg), inline: a page without a `rel=icon` link makes
// the browser ask this API for /favicon.ico, which is a 404 here like every unknown path.
const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#4b3fd1"/>' +
  '<path d="M12.5 22.5V9.8L24 7.2v12.8" fill="none" stroke="#fff" stroke-width="2.2" stroke-linejoin="round"/>' +
  '<ellipse cx="9.6" cy="22.6" rx="3.6" ry="2.9" fill="#fff"/><ellipse cx="21.1" cy="20.1" rx="3.6" ry="2.9" fill="#fff"/></svg>';

const DOCS_ICON = `data:image/svg+xml,${encodeURIComponent(ICON_SVG)}`;

export const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Music catalogue API reference</title>
  <link rel="icon" type="image/svg+xml" href="${DOCS_ICON}">
  <link rel="stylesheet" href="/v1/docs/swagger-ui.css">
</head>
<body>
  <div id="reference" data-spec="/v1/openapi.json"></div>
  <script src="/v1/docs/swagger-ui-bundle.js"></script>
  <script src="/v1/docs/init.js"></script>
</body>
</html>
`;

const INIT_JS = `const root = document.getElementById('reference');
window.ui = SwaggerUIBundle({ url: root.dataset.spec, domNode: root, deepLinking: true });
`;

const cache = new Map<string, Buffer>();

/** The asset's bytes and content type, or undefined when it is not one of ours. */
export function docsAsset(name: string): { body: Buffer; type: string } | undefined {
  if (name === 'init.js') return { body: Buffer.from(INIT_JS), type: 'text/javascript; charset=utf-8' };
  const type = ASSETS[name];
  if (!type) return undefined;
  let body = cache.get(name);
  if (!body) {
    body = readFileSync(path.join(swaggerDir(), name));
    cache.set(name, body);
  }
  return { body, type };
}
