import { Link } from "@/components/ui/link";

export default function NotFound() {
  return (
    <main id="main" className="mx-auto max-w-3xl space-y-3 p-6">
      <h1 className="text-2xl font-semibold">Not found</h1>
      <p>There is nothing at this address.</p>
      <Link className="text-blue-700 underline dark:text-blue-300" href="/">
        Back to the start page
      </Link>
    </main>
  );
}
