import { Search } from "lucide-react";
import { type ComponentProps, type ReactNode, useId } from "react";
import { cn } from "../../lib/cn";
import { Input } from "./Input";
import { Label } from "./Label";

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

/** A search box under its label; `onValueChange` gets what is typed. */
export function SearchField({
  label,
  onValueChange,
  className,
  labelClassName,
  ...input
}: Omit<ComponentProps<typeof Input>, "type" | "id" | "onChange"> & {
  label: ReactNode;
  onValueChange: (value: string) => void;
  labelClassName?: string;
}) {
  const id = useId();
  return (
    <div className={cn("grid gap-1.5", className)}>
      <Label htmlFor={id} className={labelClassName}>
        {label}
      </Label>
      <SearchInput id={id} onChange={(event) => onValueChange(event.target.value)} {...input} />
    </div>
  );
}
