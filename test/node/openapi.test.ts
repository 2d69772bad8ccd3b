/** API.md §1: the `openapi` command (`--output <file> --format json|yaml`) and the committed document. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { renderOpenApiDocument } from '../../src/openapi/export';

const ROOT = path.resolve(__dirname, '../..');
const REGENERATE =
  'npm run openapi -- --output openapi/openapi.json && npm run openapi -- --output openapi/openapi.yaml';
const workDir = mkdtempSync(path.join(tmpdir(), 'longbox-openapi-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

function runOpenApiCommand(...args: string[]) {
  const result = spawnSync('npm', ['run', '--silent', 'openapi', '--', ...args], { cwd: ROOT, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('committed openapi/ matches the code (CI catches drift)', () => {
  it.each(['json', 'yaml'] as const)('openapi/openapi.%s is what the command generates today', (format) => {
    const committed = readFileSync(path.join(ROOT, `openapi/openapi.${format}`), 'utf8');
    const generated = renderOpenApiDocument(format);
    expect(generated === committed, `openapi/openapi.${format} is stale; regenerate with: ${REGENERATE}`).toBe(true);
  });

  it('documents error envelopes, security schemes and named components', () => {
    const document = JSON.parse(renderOpenApiDocument('json'));
    expect(document.openapi).toBe('3.1.0');
    expect(document.components.schemas.Error.required).toEqual(['error', 'message', 'details']);
    expect(Object.keys(document.components.securitySchemes)).toEqual(['bearerAuth', 'apiKeyHeader', 'basicAuth']);
    for (const [route, item] of Object.entries<Record<string, any>>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        if (method === 'servers') continue;
        const where = `${method.toUpperCase()} ${route}`;
        expect(operation.responses['500'], where).toEqual({ $ref: '#/components/responses/InternalServerError' });
        for (const [status, response] of Object.entries<any>(operation.responses)) {
          if (Number(status) < 400 || '$ref' in response) continue;
          // A failing health check answers 503 with its own report, not an error envelope.
          if (where === 'GET /health' && status === '503') continue;
          expect(response.content['application/json'].schema, `${where} ${status}`).toEqual({
            $ref: '#/components/schemas/Error',
          });
        }
        // Request bodies are named components, not anonymous inline objects.
        const body = operation.requestBody?.content?.['application/json']?.schema;
        if (body) expect(body.$ref, `${where} request body`).toMatch(/^#\/components\/schemas\/[A-Z]\w+$/);
      }
    }
  });
});

describe('npm run openapi', () => {
  it.each(['json', 'yaml'] as const)('writes a parseable %s document', (format) => {
    const output = path.join(workDir, 'nested', `spec.${format}.out`);
    const result = runOpenApiCommand('--output', output, '--format', format);
    expect(result.status, result.stderr).toBe(0);
    const text = readFileSync(output, 'utf8');
    const document = format === 'json' ? JSON.parse(text) : parse(text);
    expect(document).toEqual(JSON.parse(renderOpenApiDocument('json')));
    expect(document.info.title).toBe('Longbox API');
  });

  it('takes the format from the file extension when --format is left out', () => {
    const output = path.join(workDir, 'spec.yml');
    expect(runOpenApiCommand('--output', output).status).toBe(0);
    expect(parse(readFileSync(output, 'utf8')).openapi).toBe('3.1.0');
  });

  it.each([
    [[], '--output is required'],
    [['--output', 'x.json', '--format', 'xml'], '--format must be one of json, yaml'],
    [['--output', 'spec.txt'], '--format is required'],
    [['--output', 'x.json', '--verbose'], "Unknown option '--verbose'"],
  ])('rejects %j with the usage and exit code 2', (args, problem) => {
    const result = runOpenApiCommand(...args);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(problem);
    expect(result.stderr).toContain('Usage: npm run openapi -- --output <file> [--format json|yaml]');
  });
});
