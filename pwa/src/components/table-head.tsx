// A table's column headings. The last column of row buttons has no visible heading but is still
// named for screen readers.
export function TableHead({ columns, actions = false }: { columns: string[]; actions?: boolean }) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th key={c} scope="col">
            {c}
          </th>
        ))}
        {actions && (
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        )}
      </tr>
    </thead>
  );
}
