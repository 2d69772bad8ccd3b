/**
 * `npm run openapi -- --output <file> --format json|yaml` (API.md §1): exports the OpenAPI document of
 * the API the Worker serves. `--output -` writes to stdout; without `--format`, a .json/.yaml/.yml
 * output name decides. Bad or missing options print the usage and exit with 2.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, extname } from 'node:path';
import { parseArgs } from 'node:util';
import type { OpenApiFormat } from '../src/openapi/export';

const USAGE = `Usage: npm run openapi -- --output <file> [--format json|yaml]

Writes the Longbox OpenAPI 3.1 document.
  -o, --output <file>   where to write it ("-" for stdout)
  -f, --format <fmt>    json or yaml (default: from the file extension .json/.yaml/.yml)
  -h, --help            show this help`;

const FORMATS: readonly OpenApiFormat[] = ['json', 'yaml'];
const EXTENSION_FORMATS: Record<string, OpenApiFormat> = { '.json': 'json', '.yaml': 'yaml', '.yml': 'yaml' };

function usageError(problem: string): never {
  console.error(`openapi: ${problem}\n\n${USAGE}`);
  process.exit(2);
}

function readOptions(): { output: string; format: OpenApiFormat } {
  let values: { output?: string; format?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        output: { type: 'string', short: 'o' },
        format: { type: 'string', short: 'f' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    usageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const output = values.output;
  if (!output) usageError('--output is required');
  const format = values.format ?? EXTENSION_FORMATS[extname(output).toLowerCase()];
  if (!format) usageError(`--format is required when the output name does not end in .json, .yaml or .yml`);
  if (!FORMATS.includes(format as OpenApiFormat)) {
    usageError(`--format must be one of ${FORMATS.join(', ')} (got "${format}")`);
  }
  return { output, format: format as OpenApiFormat };
}

const { output, format } = readOptions();
// Loaded only now, so a usage error answers without building the whole app first.
const { renderOpenApiDocument } = await import('../src/openapi/export');
const text = renderOpenApiDocument(format);
if (output === '-') {
  process.stdout.write(text);
} else {
  mkdirSync(dirname(output), { recursive: true });
  writeFileSync(output, text);
  console.error(`openapi: wrote ${format.toUpperCase()} to ${output}`);
}
