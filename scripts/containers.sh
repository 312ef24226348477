#!/usr/bin/env bash
# Builds and runs av-gateway's container images here with Podman (daemonless, no registry images:
# stand-ins made from Debian's packages and the local JDK 25 replace the ones that cannot be pulled).
#   scripts/containers.sh install        apt-get install podman, runc, mmdebstrap, the compose tools, CNI dnsname (if missing)
#   scripts/containers.sh images [jms|amqp]...   the stand-in base images, then the gateway images
#                                        from docker/Dockerfile (localhost/av-gateway-KIND:local)
#   scripts/containers.sh check [jms|amqp]...    runs each image as docker/compose.yaml does, on this
#                                        machine's clamd (and RabbitMQ for amqp; jms on its embedded
#                                        Artemis) and checks it: user, AOT cache, readiness, scans,
#                                        the compose health check; start times with and without the
#                                        cache (AVGW_START_RUNS of each, default 1)
#   scripts/containers.sh standins       the stand-ins of the registry images docker/compose.yaml names
#   scripts/containers.sh stack          docker/compose.yaml validated and started with
#                                        docker/compose.standins.yaml; both gateways healthy and
#                                        scanning; stopped and started with its history kept; removed
#   scripts/containers.sh all            images, check and stack, then the summary of what was measured
#   scripts/containers.sh summary        image sizes, build and start times of the runs in this clone
# Every podman call uses the project's containers.conf (.run/containers/containers.conf). Logs and
# measurements: .run/containers/.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
JAVA_HOME=$(scripts/find-jdk.sh)
export JAVA_HOME
for part in common standins images check stack; do
  # shellcheck source=/dev/null
  . "$repo/scripts/containers/$part.sh"
done

action=${1:-}
[ $# -gt 0 ] && shift
containers_install
containers_conf
# One run at a time on a machine: runs from other clones use the same image, container and port
# names. Whatever a run started is removed when it ends, however it ends.
if [ "$action" != install ] && [ "$action" != summary ]; then
  take_lock
  trap cleanup EXIT
fi
case "$action" in
  install) say "podman $(podman version --format '{{.Client.Version}}'), runc, mmdebstrap, podman-compose installed" ;;
  images) build_gateways "$@" ;;
  standins) standins_stack ;;
  stack) stack_run ;;
  check) check_images "$@" ;;
  all)
    build_gateways
    check_images
    stack_run
    summary
    ;;
  summary) summary ;;
  *) die "usage: scripts/containers.sh install|images|check [jms|amqp]...|standins|stack|all|summary" ;;
esac
