// The API documentation page (/api/docs): Swagger UI (swagger-ui-bundle.js beside this file, licence in
// LICENSE.md) showing the server's OpenAPI description. In a file of its own, not inline: the server's
// Content-Security-Policy lets only scripts from the server run (docs/protocol.md, "Security").
"use strict";

window.ui = SwaggerUIBundle({
  url: "/api/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null, // no badge from validator.swagger.io: the page loads nothing from elsewhere
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
