resource "trial_server" "web" {
  name = "web"
  size = 20
  tags = { team = "platform" }

  metadata = { owner = "platform", replicas = 2 }
  password = var.admin_password

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

  peer {
    subnet = "10.0.2.0/24"
  }

  peer {
    subnet = "10.0.3.0/24"
  }
}
