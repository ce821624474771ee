output "slug" {
  value = provider::trial::slug("Web Server #1") # "web-server-1"
}
