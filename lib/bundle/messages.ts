/** The sentence every change gets while the dashboard shows a support bundle (issue 14, Open). */
export function readOnlySentence(name: string): string {
  return `This dashboard shows the support bundle ${name}, which is read-only: nothing in it can be changed.`;
}
