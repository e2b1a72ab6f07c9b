import { Search } from "lucide-react";
import type { ComponentProps } from "react";
import { Input } from "./Input";

/** A search box with its magnifier icon; give it an id and a <Label htmlFor>. */
export function SearchInput(props: Omit<ComponentProps<typeof Input>, "type">) {
  return (
    <div className="relative">
      <Search
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500"
        aria-hidden="true"
      />
      <Input type="search" {...props} className={`pl-9 ${props.className ?? ""}`.trim()} />
    </div>
  );
}
