"""The API's documentation: ``/api/openapi.json`` (a valid OpenAPI description of the main routes) and the page
``/api/docs`` (Swagger UI from the package's web/static/apidocs) in a real headless Chromium under the server's own
Content-Security-Policy headers, with every request to another host refused (the page must work offline). The
screenshot goes to test-output/screenshots/api-docs.png."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from fastapi.testclient import TestClient

from skat.server import create_app
from skat.server.app import STATIC_DIR
from test_server_support import chromium_launch_kwargs, serve, shot, stop

MAIN_ROUTES = {
    "/api/health": {"get"},
    "/api/meta": {"get"},
    "/api/tables": {"get", "post"},
    "/api/tables/{table_id}": {"get"},
    "/api/tables/{table_id}/join": {"post"},
    "/api/tables/{table_id}/close": {"post"},
    "/api/tables/{table_id}/sheet": {"get"},
    "/api/tables/{table_id}/games": {"get"},
    "/api/tables/{table_id}/games/{deal_no}/analysis": {"get"},
    "/api/keeper": {"post"},
    "/api/tournaments": {"post"},
}
METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return create_app(f"sqlite:///{tmp_path_factory.mktemp('apidocs') / 'docs.sqlite'}")


def _refs(node):
    """Every ``$ref`` string anywhere in a JSON document."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from _refs(item)


def _resolve(doc: dict, ref: str):
    assert ref.startswith("#/"), f"a reference outside the document: {ref}"
    node = doc
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        assert isinstance(node, dict) and part in node, f"{ref} does not resolve"
        node = node[part]
    return node


def test_openapi_json_is_valid_and_lists_the_main_routes(app):
    with TestClient(app) as client:
        r = client.get("/api/openapi.json")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    doc = r.json()
    assert doc["openapi"].startswith("3.")
    assert doc["info"]["title"] == "skat" and doc["info"]["version"]
    paths = doc["paths"]
    for path, methods in MAIN_ROUTES.items():
        assert path in paths, f"{path} missing from the OpenAPI description"
        assert methods <= set(paths[path]), f"{path}: {sorted(paths[path])}"
    # the pages are no API: they stay out of it (the docs page included)
    assert not {"/", "/api/docs", "/t/{table_id}", "/keeper"} & set(paths)
    operation_ids = []
    for path, item in paths.items():
        assert path.startswith("/api/"), path
        for method, op in item.items():
            assert method in METHODS, f"{path}: {method}"
            assert op.get("responses"), f"{method.upper()} {path} has no responses"
            operation_ids.append(op["operationId"])
            for param in op.get("parameters", []):
                if param["in"] == "path":
                    assert param["required"] is True and "{" + param["name"] + "}" in path
    assert len(operation_ids) == len(set(operation_ids)), "operationIds are not unique"
    refs = set(_refs(doc))
    for ref in refs:
        _resolve(doc, ref)


def test_the_docs_page_is_served_from_the_package_under_the_csp(app):
    with TestClient(app) as client:
        page = client.get("/api/docs")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        csp = page.headers["content-security-policy"]
        assert "script-src 'self';" in csp and "style-src 'self';" in csp
        html = page.text
        assert "<script>" not in html and " style=" not in html and "cdn" not in html.lower()
        for src in ("/static/apidocs/swagger-ui-bundle.js", "/static/apidocs/init.js",
                    "/static/apidocs/swagger-ui.css"):
            assert src in html
            asset = client.get(src)
            assert asset.status_code == 200 and len(asset.content) > 100, src
    # the licence travels with the files (the wheel takes web/static/**/*)
    assert "Apache License" in (STATIC_DIR / "apidocs" / "LICENSE").read_text()
    assert "Apache" in (STATIC_DIR / "apidocs" / "LICENSE.md").read_text()


def test_api_docs_page_in_chromium(app):
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright

    srv = serve(app)  # a free port
    port = srv.port
    base = f"http://127.0.0.1:{port}"
    problems: list[str] = []
    elsewhere: list[str] = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(**chromium_launch_kwargs())
            context = browser.new_context(viewport={"width": 1280, "height": 900})

            def route(r):
                if urlsplit(r.request.url).netloc == f"127.0.0.1:{port}":
                    r.continue_()
                else:  # offline: nothing may come from elsewhere (a CDN, validator.swagger.io)
                    elsewhere.append(r.request.url)
                    r.abort()

            context.route("**/*", route)
            # the browser's own report of anything the Content-Security-Policy blocked
            context.add_init_script("""document.addEventListener('securitypolicyviolation', (e) =>
                console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));""")
            page = context.new_page()
            page.on("console", lambda m: m.type == "error" and problems.append(f"console: {m.text}"))
            page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
            page.on("response", lambda r: r.status >= 400 and problems.append(f"HTTP {r.status} {r.url}"))
            page.on("requestfailed", lambda r: problems.append(f"failed: {r.url} {r.failure}"))
            response = page.goto(base + "/api/docs")
            assert "script-src 'self'" in response.headers["content-security-policy"]
            try:
                page.wait_for_selector("#swagger-ui h1.title", timeout=15000)
            except PlaywrightTimeout:
                pytest.fail(f"Swagger UI showed no API; what went wrong: {problems}, asked elsewhere: {elsewhere}")
            title = page.inner_text("#swagger-ui h1.title")
            assert title.startswith("skat"), title
            page.wait_for_selector(".opblock-get [data-path='/api/tables']", timeout=5000)
            summary = page.inner_text(".opblock-get:has([data-path='/api/tables'])")
            assert "GET" in summary and "/api/tables" in summary, summary
            assert page.locator(".opblock-post:has([data-path='/api/tables'])").count() == 1
            # the description was read from the server, not a default
            assert page.locator(".opblock").count() >= len(MAIN_ROUTES)
            assert "docs/protocol.md" in page.inner_text("#swagger-ui .info__description")
            shot(page, "api-docs")
            # "Try it out" asks this server from the page (the policy's connect-src) and shows the answer
            health = page.locator("#operations-default-health_api_health_get")
            health.locator(".opblock-summary-control").click()
            health.locator("button.try-out__btn").click()
            health.locator("button.execute").click()
            status = health.locator(".live-responses-table .response .response-col_status").first
            status.wait_for(timeout=5000)
            assert status.inner_text().strip() == "200"
            assert '"status": "ok"' in health.locator(".live-responses-table .microlight").first.inner_text()
            page.wait_for_timeout(300)  # late console messages
            shot(page, "api-docs-try-it-out")
            browser.close()
    finally:
        stop(srv)
    assert not elsewhere, f"the page asked for something from elsewhere: {elsewhere}"
    assert not problems, problems
