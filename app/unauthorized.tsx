export default function Unauthorized() {
  return (
    <main id="main" className="mx-auto max-w-3xl space-y-3 p-6">
      <h1 className="text-2xl font-semibold">Access token needed</h1>
      <p>
        Open the address that <code>npm start</code> printed; it carries this start&apos;s access token.
      </p>
    </main>
  );
}
