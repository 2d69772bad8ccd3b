/**
 * The `openapi` command's output (API.md §1): the document of the app the Worker runs, as JSON or YAML.
 * Node-only (the `yaml` package); the Worker never imports this module.
 */
import { stringify } from 'yaml';
import { createApp } from '../app';
import { buildOpenApiDocument } from './document';

export type OpenApiFormat = 'json' | 'yaml';

export function renderOpenApiDocument(format: OpenApiFormat): string {
  const document = buildOpenApiDocument(createApp());
  if (format === 'json') return `${JSON.stringify(document, null, 2)}\n`;
  // No anchors/aliases for shared objects and no line folding: plain YAML that diffs line by line.
  return stringify(document, { aliasDuplicateObjects: false, lineWidth: 0 });
}
