// Named (server-side prepared) statements on PostgreSQL for the queries built with `prepared()`
// (docs/decisions/16-compiled-queries-and-bounded-reads.md): PostgreSQL then parses and plans each
// hot query once per connection instead of on every request. Only those texts get a name, so the
// number of statements a connection keeps is bounded by our code, not by the arguments.
const names = new Map<string, string>();

/** Gives the SQL text a statement name (once; the same text always gets the same name). */
export function nameStatement(sql: string): void {
  if (!names.has(sql)) names.set(sql, `bw_${names.size}`);
}

/** The statement name of this SQL text, if it is one of the prepared queries. */
export function statementName(sql: string): string | undefined {
  return names.get(sql);
}
