/** A question the confirmation dialog asks before an action that cannot be taken back. */
export interface ConfirmRequest {
  title: string
  message: string
  /** The confirming button's label (`Restore`, `Delete`…). */
  action: string
  /** Runs once the user confirmed; reports its own failures. */
  run: () => Promise<void>
}
