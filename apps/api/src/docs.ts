import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const swaggerDir = () => path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** `/v1/docs`: Swagger UI served from the npm package (no CDN), reading `/v1/openapi.json`. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

export const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Music catalogue API reference</title>
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
