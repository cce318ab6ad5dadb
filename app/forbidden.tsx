export default function Forbidden() {
  return (
    <main id="main" className="mx-auto max-w-3xl space-y-3 p-6">
      <h1 className="text-2xl font-semibold">Forbidden</h1>
      <p>This dashboard only answers requests to its own address on this computer.</p>
    </main>
  );
}
