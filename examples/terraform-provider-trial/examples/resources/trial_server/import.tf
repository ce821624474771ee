import {
  to = trial_server.web
  id = "srv-web"
}
