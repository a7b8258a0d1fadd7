// Neo4j's own Cypher front end over the Cypher kg ships and generates.
// stdin: JSON {"schema": {labels, relationshipTypes, propertyKeys}, "queries": [{"name", "query",
// "parameters": {...}, "mapKeys": [...]}]}, where mapKeys are keys of parameter maps the query reads
// (row.props), which the front end cannot tell from property keys.
// stdout: JSON [{"name", "diagnostics": [{severity, message, line, column}]}].
import { readFileSync } from 'node:fs';
import { lintCypherQuery } from '@neo4j-cypher/language-support';

const input = JSON.parse(readFileSync(0, 'utf8'));
const schema = input.schema ?? {};
const out = input.queries.map(({ name, query, parameters, mapKeys }) => {
  const propertyKeys = [...(schema.propertyKeys ?? []), ...(mapKeys ?? [])];
  const { diagnostics } = lintCypherQuery(query, { ...schema, propertyKeys, parameters: parameters ?? {} });
  return {
    name,
    diagnostics: diagnostics.map((d) => ({
      severity: d.severity, // 1 error, 2 warning (LSP DiagnosticSeverity)
      message: d.message,
      line: d.range.start.line + 1,
      column: d.range.start.character + 1,
    })),
  };
});
process.stdout.write(JSON.stringify(out));
