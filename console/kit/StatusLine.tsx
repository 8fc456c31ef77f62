/**
 * What an area's last action did, read out politely (role=status). Focusable, so an action that
 * removes its own button can send focus here.
 */
export function StatusLine({ id, status }: { id: string; status: string }) {
  return (
    <p className="status" id={id} role="status" tabIndex={-1}>
      {status}
    </p>
  );
}
