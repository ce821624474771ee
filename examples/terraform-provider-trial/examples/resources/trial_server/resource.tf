resource "trial_server" "web" {
  name = "web"
  size = 20
  tags = { team = "platform" }

  disk {
    size = 100
  }

  disk {
    size = 500
    kind = "ssd"
  }

  network {
    subnet = "10.0.1.0/24"
  }
}
