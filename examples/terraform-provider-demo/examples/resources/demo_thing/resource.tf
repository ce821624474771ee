resource "demo_thing" "x" {
  name   = "a"
  size   = 3
  labels = ["blue", "green"]
  tags   = { team = "platform" }

  disk {
    size = 10
  }

  endpoint = {
    host = "example.com"
    port = 443
  }
}
