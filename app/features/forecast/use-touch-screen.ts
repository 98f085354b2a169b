import { useEffect, useState } from "react";

/** A touch screen without hover (a phone, a tablet): known in the browser only; false on the server and at hydration. */
export function useTouchScreen(): boolean {
  const [touch, setTouch] = useState(false);
  useEffect(() => {
    const query = window.matchMedia("(pointer: coarse) and (hover: none)");
    setTouch(query.matches);
    const onChange = () => setTouch(query.matches);
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, []);
  return touch;
}
