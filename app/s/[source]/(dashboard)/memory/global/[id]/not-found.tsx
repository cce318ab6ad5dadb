import { NotFoundHere } from "@/components/shell/not-found-here";

export default function NotFound() {
  return <NotFoundHere kind="memory" />;
}
