/**
 * Thrown where work must stop without recording an outcome (the worker drains while a
 * foreground child is still running): the tool call stays unrecorded and is run again by
 * whichever worker continues the session.
 */
export class StopDriving extends Error {
  override readonly name = "StopDriving";
}
