/**
 * The message under a form field. Always in the DOM, so screen readers announce it when text appears;
 * the field points at it with `aria-describedby`.
 */
export function FieldError({ id, message }: { id: string; message: string }) {
  return (
    <p id={id} aria-live="polite" className="mt-1.5 min-h-5 text-sm font-medium text-red-700">
      {message}
    </p>
  );
}
