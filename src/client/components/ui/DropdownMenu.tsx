import { DropdownMenu as MenuPrimitive } from "radix-ui";
import type { ComponentProps } from "react";
import { cn } from "../../lib/cn";
import { withClasses } from "./withClasses";

/** Non-modal by default: the rest of the page is not hidden from assistive technology while open. */
export function DropdownMenu({ modal = false, ...props }: ComponentProps<typeof MenuPrimitive.Root>) {
  return <MenuPrimitive.Root modal={modal} {...props} />;
}
export const DropdownMenuTrigger = MenuPrimitive.Trigger;
export const DropdownMenuGroup = MenuPrimitive.Group;

export function DropdownMenuContent({
  className,
  sideOffset = 6,
  align = "end",
  ...props
}: ComponentProps<typeof MenuPrimitive.Content>) {
  return (
    <MenuPrimitive.Portal>
      <MenuPrimitive.Content
        sideOffset={sideOffset}
        align={align}
        className={cn("z-50 min-w-56 rounded-ui border border-slate-200 bg-white p-1 shadow-lg", className)}
        {...props}
      />
    </MenuPrimitive.Portal>
  );
}

export const DropdownMenuItem = withClasses(
  MenuPrimitive.Item,
  "flex cursor-pointer select-none items-center gap-2 rounded-md px-3 py-2 text-base text-slate-800 outline-none",
  "data-[highlighted]:bg-brand-50 data-[highlighted]:text-brand-900 data-[disabled]:opacity-50 [&_svg]:size-4",
);

export const DropdownMenuLabel = withClasses(MenuPrimitive.Label, "px-3 py-2 text-sm text-slate-600");

export const DropdownMenuSeparator = withClasses(MenuPrimitive.Separator, "-mx-1 my-1 h-px bg-slate-200");
