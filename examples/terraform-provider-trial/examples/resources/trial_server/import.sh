terraform import trial_server.web srv-web
