// The list part of the Companies and Users tabs: how many rows the filters leave (announced as they
// change), then either the "none match" line or the table in its card.
import type { ReactNode } from 'react';
import { TableHead } from '../../../components/table-head.tsx';

export function AdminTable({
  countText,
  empty,
  emptyText,
  className,
  columns,
  actions,
  children,
}: {
  countText: string;
  empty: boolean;
  emptyText: string;
  /** The table's class next to `adm-table`. */
  className: string;
  columns: string[];
  /** Add a last column for row buttons. */
  actions?: boolean;
  /** The rows. */
  children: ReactNode;
}) {
  return (
    <>
      <p className="adm-muted" role="status">
        {countText}
      </p>

      {empty ? (
        <p className="adm-empty">{emptyText}</p>
      ) : (
        <div className="card adm-table-card">
          <table className={`adm-table ${className}`}>
            <TableHead columns={columns} actions={actions} />
            <tbody>{children}</tbody>
          </table>
        </div>
      )}
    </>
  );
}
