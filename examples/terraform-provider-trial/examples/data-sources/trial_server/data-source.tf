data "trial_server" "web" {
  name = "web"
}

output "web_id" {
  value = data.trial_server.web.id
}
