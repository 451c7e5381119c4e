// node-postgres's value conversion (the text it sends for each parameter), which has no published types.
declare module 'pg/lib/utils.js' {
  /** null for SQL NULL, a Buffer for binary values, else the parameter's text. */
  export function prepareValue(value: unknown): string | Buffer | null;
  const utils: { prepareValue: typeof prepareValue };
  export default utils;
}
