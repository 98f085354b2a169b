import { resetConfigForTests } from "~/config.server";
import { messages } from "~/messages";
import { createToastHeaders } from "~/shared/toast.server";
import { expect, test } from "./fixtures";

test("/ shows the login page and /home shows hello", async ({ page }) => {
  const login = await page.goto("/");
  expect(login?.status()).toBe(200);
  expect(await page.locator("html").getAttribute("lang")).toBe("pt-BR");
  await page.getByLabel(messages.emailLabel).waitFor();
  expect(await page.getByLabel(messages.emailLabel).getAttribute("type")).toBe("email");
  expect(await page.getByLabel(messages.passwordLabel).getAttribute("type")).toBe("password");
  expect(await page.getByRole("button", { name: messages.loginButton }).isVisible()).toBe(true);

  const home = await page.goto("/home");
  expect(home?.status()).toBe(200);
  expect((await page.locator("main").innerText()).trim()).toBe("hello");
});

test("an unknown address shows the Portuguese 404 page", async ({ page }) => {
  const response = await page.goto("/nao-existe");
  expect(response?.status()).toBe(404);
  await page.getByRole("heading", { name: messages.notFoundTitle }).waitFor();
  expect(await page.getByText(messages.notFound).isVisible()).toBe(true);
});

test("a toast cookie is shown once and then cleared", async ({ app, page }) => {
  // Sign the cookie as the server would, with its secret.
  const savedSecret = process.env.SESSION_SECRET;
  process.env.SESSION_SECRET = app.sessionSecret;
  resetConfigForTests();
  const headers = await createToastHeaders({ type: "success", description: "Salvo com sucesso!" });
  if (savedSecret === undefined) delete process.env.SESSION_SECRET;
  else process.env.SESSION_SECRET = savedSecret;
  resetConfigForTests();

  const [name, ...value] = headers.getSetCookie()[0].split(";")[0].split("=");
  await page.context().addCookies([{ name, value: value.join("="), url: app.baseURL }]);

  await page.goto("/home");
  const toast = page.getByRole("status").filter({ hasText: "Salvo com sucesso!" });
  await toast.waitFor();
  expect(await page.context().cookies()).not.toContainEqual(expect.objectContaining({ name }));

  await page.reload();
  await page.getByText("hello").waitFor();
  expect(await page.getByText("Salvo com sucesso!").count()).toBe(0);
});
